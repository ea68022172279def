#!/usr/bin/env bash
# Installs the Debian packages the project needs, in two sets:
#   scripts/install-deps.sh          the runtime set: what building and running headlines need
#                                    (`make build`, `make demo`)
#   scripts/install-deps.sh --test   the runtime set plus what the tests, the hostile suite and the
#                                    benchmark need (`make test`, `make hostile`, `make bench`)
#   scripts/install-deps.sh --list [--test]   prints the set, one package a line, installs nothing
# Idempotent: when every package of the set is already installed it touches nothing (FORCE=1 runs
# apt-get update and install anyway). Needs root, or sudo.
# The Swift toolchain itself is not a Debian package: it is expected at /opt/swift (or on PATH).
set -euo pipefail

# Building and running: the C libraries behind the system-library targets (their headers, and
# through them the shared libraries the binaries load), and the certificates libcurl checks https
# against. Nothing else belongs here: a newcomer's `make demo` installs only this.
RUNTIME_PACKAGES=(
    libnotify-dev          # CGLibNotify: libnotify, and through its .pc gio/gobject/glib
    libglib2.0-dev         # GLib, GIO, GKeyFile headers
    libcurl4-openssl-dev   # CCurl: the libcurl transport
    libxml2-dev            # CLibXML2: the feed parser
    libgdk-pixbuf-2.0-dev  # CGdkPixbuf: notification images, scaled in the reload child (libnotify-dev brings it too)
    libseccomp-dev         # CSeccomp: the reload child's seccomp filter (Landlock needs no library)
    libsecret-1-dev        # CLibSecret: a sync service's password in the Secret Service (headlines login)
    pkg-config             # SwiftPM finds the libraries' .pc files through it
    ca-certificates        # libcurl verifies https servers against them
    # The Swift toolchain's own Debian dependencies (swift.org's list for Debian 12): the linker
    # and C runtime it links with, and the terminal library its driver loads.
    binutils libgcc-12-dev libstdc++-12-dev libncurses6 libc6-dev
)

# Tests, the hostile suite and the benchmark only. Later features append here.
TEST_PACKAGES=(
    gzip                   # make install: the man pages
    python3                # the suites' news server, the benchmark (Benchmarks/)
    dbus-daemon            # notification suite: a private session bus
    dbus                   # dbus-send
    dbus-bin               # dbus-monitor records the Notify calls
    libglib2.0-bin         # gdbus: the bus suite calls and introspects the host
    xvfb                   # a display for dunst
    dunst                  # the real notification server, and dunstctl
    faketime               # notify-quiet suite: quiet hours on the host's clock
    mako-notifier          # notify-servers suite: mako under the headless sway, and makoctl
    xfce4-notifyd          # notify-servers suite: xfce4-notifyd under Xvfb
    xdotool                # notify-servers suite: a real (XTEST) click on xfce4-notifyd's window
    python3-gi             # doctor-and-click suite: a notification server without actions (Gio)
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
    lintian                # packaging suite: the .deb has no lintian error
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
    libxml2-utils          # the benchmark: xmllint, beside the reload child's parse throughput
    iproute2               # the benchmark: `ip` brings loopback up in its private network namespace
    polybar                # bar-hosts suite: the real bars under Xvfb, each running our snippet
    yambar
    xmobar
    lemonbar
    conky-std              # conky with X (conky-cli has none and conflicts with it)
    tmux                   # bar-hosts suite: tmux's status line, inside an xterm for clicks
    xterm
    xfonts-base            # lemonbar 1.4 draws with X core fonts only ("fixed")
    xfce4-panel            # bar-hosts suite: a panel holding the Generic Monitor, under Xvfb
    xfce4-genmon-plugin
    xfconf                 # xfconfd, which xfce4-panel reads its panels from
    php8.2-cli             # the sync providers' tests: a real FreshRSS (Tests/Servers/freshrss) on PHP's
    php8.2-sqlite3         #   built-in server, with the extensions it needs, and its database read
    php8.2-curl            #   back with sqlite3
    php8.2-xml
    php8.2-mbstring
    php8.2-intl
    php8.2-gmp
    php8.2-zip
    sqlite3
    gnome-keyring          # the password tests: a real Secret Service on a private session bus
    libsecret-tools        # secret-tool: the password tests read what headlines login stored
    gnome-shell            # gnome-shell suite: the real GNOME Shell 43, headless, running our extension
    plasma-workspace       # plasma suite: plasmawindowed, and the "executable" data engine the applet reads through
    at-spi2-core           # plasma suite: the accessibility bus the applet's text is read from
    gir1.2-atspi-2.0       #   and its client library, for python3-gi
)

usage() { echo "usage: scripts/install-deps.sh [--test] [--list]" >&2; exit 2; }
with_tests=0
list_only=0
for arg in "$@"; do
    case "$arg" in
        --test) with_tests=1 ;;
        --list) list_only=1 ;;
        *) usage ;;
    esac
done

PACKAGES=("${RUNTIME_PACKAGES[@]}")
if [ "$with_tests" = 1 ]; then PACKAGES+=("${TEST_PACKAGES[@]}"); fi
set_name=runtime
if [ "$with_tests" = 1 ]; then set_name="runtime and test"; fi

if [ "$list_only" = 1 ]; then
    printf '%s\n' "${PACKAGES[@]}"
    exit 0
fi

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
    echo "install-deps: all ${#PACKAGES[@]} $set_name packages already installed (FORCE=1 to reinstall)."
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
echo "install-deps: installing ($set_name set) ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
