# nix-shell environment.nix: the toolchain ipclab is built and measured with,
# for machines that are not Debian 12 (the reference).  Pinned to a nixpkgs
# release so that versions stay put; Debian 12 ships the same major versions.
#
# The pin is the release's tarball and the sha256 of its unpacked contents
# (what fetchTarball checks; a moved tag or a changed tarball then fails
# instead of giving other versions).  To move the pin: change the URL, then
#   nix-prefetch-url --unpack URL
# prints the new sha256.  (The hash below was not computed on the machine
# that wrote this file, which has no Nix: it is the one public projects
# pinning this same URL record.)
{ pkgs ? import (fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/refs/tags/23.05.tar.gz";
    sha256 = "10wn0l08j9lgqcw8177nh2ljrnxdrpri7bp0g7nvrsn9rkawvlbf";
  }) { } }:

pkgs.mkShell {
  name = "ipclab";
  nativeBuildInputs = with pkgs; [
    gcc gnumake pkg-config util-linux
  ];
  buildInputs = with pkgs; [
    glib dbus dbus-broker systemd zlib liburing
    # the C++ transports (optional: without them qtdbus and sdbus-c++ are
    # listed unavailable; meta.ini records the versions built against)
    qt5.qtbase sdbus-cpp
    # the messaging libraries' transports (optional like the C++ ones)
    zeromq nng grpc
  ];
  packages = with pkgs; [
    gnuplot poppler_utils
    (texlive.combine { inherit (texlive) scheme-small latexmk booktabs; })
    hyperfine linuxPackages.perf
    # environments (ENV=nspawn, ENV=vm): systemd-nspawn comes with systemd;
    # debootstrap needs Debian's archive keyring to check what it fetches
    qemu debootstrap e2fsprogs debian-archive-keyring
  ];
}
