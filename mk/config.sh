#!/bin/bash
# mk/config.sh CXX_TRANSPORTS FILE: writes the build configuration of this
# machine to FILE (build/config.mk) as make variables: which optional
# libraries pkg-config finds, their versions, and the flags to compile and
# link with them.  FILE is replaced (atomically) only when a line changed,
# and the changed versions are said on stderr; nothing goes to stdout.
# mk/harness.mk runs it on every make, after deps-check has installed what
# was missing, and every object depends on FILE, so that a library that
# appeared, went or changed version is built in or left out, and "built
# without X" means X is not installed.
# The pkg-config and compiler calls below take seconds (15 and more on a
# busy machine) and make runs this on every invocation, so their result
# is kept with a key, $FILE.key, made of everything they depend on: this
# script, its arguments, the compiler, pkg-config's search path and the
# name, size and time of every .pc file on it (and of its directories:
# a file added or removed), nng's header and library, and the package
# database (an apt-get install or remove).  While the key is the same,
# FILE is left as it is and nothing is asked again.
set -u
cxx=${1:-yes} file=$2
mkdir -p "$(dirname "$file")"
config_key() {
        local pc_path d
        pc_path=$(pkg-config --variable pc_path pkg-config 2>/dev/null)
        sha256sum "$0"
        echo "$cxx ${CC:-cc} ${PKG_CONFIG_PATH-} ${PKG_CONFIG_LIBDIR-} ${PKG_CONFIG_SYSROOT_DIR-} $pc_path"
        for d in ${PKG_CONFIG_PATH:+${PKG_CONFIG_PATH//:/ }} ${PKG_CONFIG_LIBDIR:+${PKG_CONFIG_LIBDIR//:/ }} ${pc_path//:/ }; do
                [ -d "$d" ] && stat -L -c '%n %s %.9Y' -- "$d" "$d"/*.pc 2>/dev/null
        done
        stat -L -c '%n %s %.9Y' -- /usr/include/nng/nng.h /usr/local/include/nng/nng.h \
                "$(${CC:-cc} -print-file-name=libnng.so 2>/dev/null)" /var/lib/dpkg/status 2>/dev/null
        command -v pkg-config ${CC:-cc}
}
key=$(config_key | sha256sum | cut -d' ' -f1)
[ -f "$file" ] && [ "$(cat "$file.key" 2>/dev/null)" = "$key" ] && exit 0
tmp=$file.tmp.$$
trap 'rm -f "$tmp"' EXIT
exec 3>&1 > "$tmp"
# A value as make reads it: `$` doubled, `#` escaped.
mk_value() { sed -e 's/\$/$$/g' -e 's/#/\\#/g' <<<"$1"; }
# NAME := VALUE
put() { printf '%s := %s\n' "$1" "$(mk_value "$2")"; }
# The installed version of each package pkg-config knows, or "absent".
version() { pkg-config --modversion "$1" 2>/dev/null || echo absent; }

echo "# The build configuration (mk/config.sh), compared on every make."
pkgs="glib-2.0 gio-2.0 gio-unix-2.0 dbus-1 zlib liburing"
for p in $pkgs libsystemd Qt5Core Qt5DBus sdbus-c++ libzmq grpc++; do
        put "VERSION_$p" "$(version "$p")"
done
put CXX_TRANSPORTS_BUILT "$cxx"

have_sdbus=
pkg-config --exists libsystemd 2>/dev/null && have_sdbus=yes
put HAVE_SDBUS "$have_sdbus"
put SDBUS_VERSION "$([ -n "$have_sdbus" ] && version libsystemd)"
[ -n "$have_sdbus" ] && pkgs="$pkgs libsystemd"
put PKG_CFLAGS "$(pkg-config --cflags $pkgs 2>/dev/null)"
put PKG_LIBS "$(pkg-config --libs $pkgs 2>/dev/null)"

have_qt= have_sdcpp= have_grpc=
if [ "$cxx" = yes ]; then
        pkg-config --exists Qt5DBus Qt5Core 2>/dev/null && have_qt=yes
        pkg-config --exists sdbus-c++ libsystemd 2>/dev/null && have_sdcpp=yes
        pkg-config --exists grpc++ 2>/dev/null && have_grpc=yes
fi
put HAVE_QTDBUS "$have_qt"
put HAVE_SDBUSCPP "$have_sdcpp"
put HAVE_GRPC "$have_grpc"
put QTDBUS_VERSION "$([ -n "$have_qt" ] && version Qt5DBus || echo "not built in")"
put SDBUSCPP_VERSION "$([ -n "$have_sdcpp" ] && version sdbus-c++ || echo "not built in")"
# Before 1.3.0 (its PR #340) sdbus-c++ appends a std::vector<uint8_t>
# element by element, from 1.3.0 as one array.
array=0
[ -n "$have_sdcpp" ] && pkg-config --atleast-version=1.3.0 sdbus-c++ && array=1
put SDBUSCPP_ARRAY "$array"
cxx_pkgs="${have_qt:+Qt5DBus Qt5Core} ${have_sdcpp:+sdbus-c++} ${have_grpc:+grpc++}"
cxx_pkgs=$(echo $cxx_pkgs)
put CXX_PKG_CFLAGS "$([ -n "$cxx_pkgs" ] && pkg-config --cflags $cxx_pkgs)"
put CXX_PKG_LIBS "$([ -n "$cxx_pkgs" ] && echo "$(pkg-config --libs $cxx_pkgs) -lstdc++")"

# The messaging libraries' transports (harness/measure/transports/zeromq.c ...),
# each built in where its library is (mk/harness.mk).
have_zmq=
pkg-config --exists libzmq 2>/dev/null && have_zmq=yes
put HAVE_ZMQ "$have_zmq"
put ZMQ_CFLAGS "$([ -n "$have_zmq" ] && pkg-config --cflags libzmq)"
put ZMQ_LIBS "$([ -n "$have_zmq" ] && pkg-config --libs libzmq)"
# nng has no pkg-config file on Debian 12 (CMake's only): its header, its
# library and the version its header states.
nng_h=$(echo '#include <nng/nng.h>' | ${CC:-cc} -E -dM - 2>/dev/null)
have_nng=
nng_version=absent
if [ -n "$nng_h" ] && echo 'int main(void){return 0;}' | ${CC:-cc} -x c - -lnng -o /dev/null 2>/dev/null; then
        have_nng=yes
        nng_version=$(awk '$2 == "NNG_MAJOR_VERSION" { a = $3 } $2 == "NNG_MINOR_VERSION" { b = $3 }
                $2 == "NNG_PATCH_VERSION" { c = $3 } END { print a "." b "." c }' <<<"$nng_h")
fi
put VERSION_nng "$nng_version"
put HAVE_NNG "$have_nng"
put NNG_LIBS "$([ -n "$have_nng" ] && echo "-lnng -lpthread")"

exec >&3 3>&-
if ! cmp -s "$tmp" "$file"; then
        [ -f "$file" ] && diff "$file" "$tmp" | sed -n 's/^> \(VERSION_[^ ]*\|CXX_TRANSPORTS_BUILT\) := /  config: \1 now /p' >&2
        mv "$tmp" "$file"
fi
echo "$key" > "$tmp" && mv "$tmp" "$file.key"
