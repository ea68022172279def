#!/usr/bin/env bash
# Installs the Debian packages that building, the demo, the tests and the benchmark need.
# Idempotent: when every package is already installed it touches nothing (FORCE=1 runs
# apt-get update and install anyway). Needs root, or sudo.
# The Swift toolchain itself is not a Debian package: it is expected at /opt/swift (or on PATH).
set -euo pipefail

# The one list of packages. Later features append here (dunst, xvfb, i3blocks, sway, waybar ...).
PACKAGES=(
    libnotify-dev          # CGLibNotify: libnotify, and through its .pc gio/gobject/glib
    libglib2.0-dev         # GLib, GIO, GKeyFile headers
    libcurl4-openssl-dev   # CCurl: the libcurl transport
    libxml2-dev            # CLibXML2: the feed parser
    pkg-config             # SwiftPM finds libnotify through it
    gzip
    python3                # scripts/bench_server.py, the suites' news server
    dbus-daemon            # notification suite: a private session bus
    dbus                   # dbus-send
    dbus-bin               # dbus-monitor records the Notify calls
    xvfb                   # a display for dunst
    dunst                  # the real notification server, and dunstctl
    mako-notifier          # notify-servers suite: mako under the headless sway, and makoctl
    xfce4-notifyd          # notify-servers suite: xfce4-notifyd under Xvfb
    xdotool                # notify-servers suite: a real (XTEST) click on xfce4-notifyd's window
    imagemagick            # notify-servers suite: `import -window root`, the dunst screenshot
    procps                 # pgrep/pkill in the suites
    i3blocks               # bar suite: the real i3blocks 1.4
    sway                   # bar suite: a headless compositor for the real waybar
    waybar
    grim                   # the waybar screenshot
    fonts-dejavu-core      # so the screenshot has glyphs
    python3-feedparser     # the benchmark's peer: a feedparser script
    time                   # GNU time: peak RSS of one-shot commands
    desktop-file-utils     # packaging suite: desktop-file-validate
    systemd                # packaging suite: systemd-analyze verify, syscall-filter
    man-db                 # packaging suite: man renders the installed pages
    groff-base             # nroff/groff behind man
    dpkg-dev               # make deb: dpkg-shlibdeps computes Depends
    python3-seccomp        # packaging suite: the unit's seccomp hardening, tried without systemd
    zsh                    # packaging suite: zsh -n on the zsh completion
    strace                 # hostile security suite: no connect() before a refusal
    fish                   # packaging suite: fish --no-execute on the fish completion
    valgrind               # hostile suite: the memory checks
    util-linux             # hostile suite: setpriv, unshare; the sway suite: runuser
    newsboat               # benchmark peers: newsboat, curl | jq
    curl
    jq
    gnuplot-nox            # the benchmark chart
)

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "install-deps: warning: no swift on PATH nor at /opt/swift/usr/bin; install the Swift 6 toolchain there." >&2
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = installed ] || missing+=("$pkg")
done

if [ "${#missing[@]}" -eq 0 ] && [ "${FORCE:-0}" != 1 ]; then
    echo "install-deps: all ${#PACKAGES[@]} packages already installed (FORCE=1 to reinstall)."
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "install-deps: missing packages: ${missing[*]:-none}; run this script as root or install sudo." >&2
    exit 1
fi

if [ "${FORCE:-0}" = 1 ]; then missing=("${PACKAGES[@]}"); fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
