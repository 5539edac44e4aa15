# env: the Debian images that `ipclab run --env nspawn|vm` runs in.
#
#   make env          build (or reuse) both images
#   make env-nspawn   the root directory for systemd-nspawn
#   make env-vm       kernel, initrd and root disk for qemu
#   make env-hash     print the recipe hash that names the images
#   make env-clean    remove the cached images of every recipe
#
# The recipe is ENV_DIR/image.recipe (ENV_DIR: harness/place/env here,
# PREFIX/share/ipclab/env in a study, mk/standalone.mk); ENV_DIR/build-image.sh builds
# it into ${IPCLAB_CACHE:-$HOME/.cache/ipclab}/images/<recipe sha256>/,
# outside the source tree.  An image is rebuilt only when the recipe, the
# build script or the guest init changes (they make the hash), and one that
# is complete is always reused, so these targets cost nothing when the
# cache is warm.  Building needs root and Debian's package mirror.

ENV_DIR ?= harness/place/env
ENV_BUILD := $(ENV_DIR)/build-image.sh
ENV_CACHE = $(or $(IPCLAB_CACHE),$(HOME)/.cache/ipclab)

# Debian packages the environments need on the host (for `make deps`).
DEPS_ENV := systemd-container qemu-system-x86 debootstrap e2fsprogs util-linux

.PHONY: env env-nspawn env-vm env-hash env-clean
env: env-nspawn env-vm

env-nspawn env-vm: env-%:
	$(Q)$(ENV_BUILD) build $*

env-hash:
	$(Q)$(ENV_BUILD) hash

env-clean:
	rm -rf --one-file-system $(ENV_CACHE)/images
