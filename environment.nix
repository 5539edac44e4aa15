# nix-shell environment.nix: the toolchain ipclab is built and measured with,
# for machines that are not Debian 12 (the reference).  Pinned to a nixpkgs
# release so that versions stay put; Debian 12 ships the same major versions.
{ pkgs ? import (fetchTarball {
    url = "https://github.com/NixOS/nixpkgs/archive/refs/tags/23.05.tar.gz";
  }) { } }:

pkgs.mkShell {
  name = "ipclab";
  nativeBuildInputs = with pkgs; [
    gcc gnumake pkg-config util-linux
  ];
  buildInputs = with pkgs; [
    glib dbus dbus-broker systemd
  ];
  packages = with pkgs; [
    gnuplot
    (texlive.combine { inherit (texlive) scheme-small latexmk booktabs; })
    hyperfine linuxPackages.perf
    # environments (ENV=nspawn, ENV=vm): systemd-nspawn comes with systemd;
    # debootstrap needs Debian's archive keyring to check what it fetches
    qemu debootstrap e2fsprogs debian-archive-keyring
  ];
}
