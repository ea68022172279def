#!/usr/bin/env bash
# The notification, with its image and actions, on three real servers: dunst and
# xfce4-notifyd under Xvfb, mako under a headless sway. Each runs in lib/notify_daemon.sh, as an
# unprivileged user when we are root (sway refuses root). For each: the Notify call carries the
# default action and an image-path to a 256 px PNG fetched without the key, and the server's own
# way of invoking the default action (dunstctl action, makoctl invoke, a real XTEST click on
# xfce4-notifyd's button) opens the article. Keeps the dunst screenshot at
# build/screenshots/notification.png (and packaging/screenshots/ with UPDATE_SCREENSHOTS=1).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. scripts/lib/common.sh
for tool in dunst mako makoctl sway xdotool import Xvfb; do
    command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh"
done
[ -x /usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd ] || die "xfce4-notifyd is missing: run scripts/install-deps.sh"

suite_dir notify-servers
chmod 755 "$WORK"
# The programs side by side as make install puts them, and the library, where the user can read them.
mkdir -p "$WORK/bin" "$WORK/lib" "$WORK/run"
install_programs "$WORK/bin"
install -m 755 "$LIB"/*.sh "$LIB"/*.py "$WORK/lib/"

run_as=()
if [ "$(id -u)" -eq 0 ]; then
    USER_NAME=hlnotify
    id "$USER_NAME" >/dev/null 2>&1 || useradd --create-home --shell /bin/sh "$USER_NAME" || die "cannot create user $USER_NAME"
    chown "$USER_NAME" "$WORK/run"
    run_as=(runuser -u "$USER_NAME" --)
fi
SHOT=$WORK/run/notification.png
for daemon in dunst mako xfce4-notifyd; do
    echo "$daemon"
    "${run_as[@]}" env -i PATH=/usr/bin:/bin SHOT="$SHOT" NOTIFY_DEBUG_SHOT="${NOTIFY_DEBUG_SHOT:-}" "$WORK/lib/notify_daemon.sh" "$daemon" "$WORK/run" "$WORK/bin" "$WORK/lib" \
        || die "$daemon: see above"
done
[ -s "$SHOT" ] || die "no dunst screenshot"
mkdir -p build/screenshots
cp "$SHOT" build/screenshots/notification.png
[ -s "${SHOT%.png}-mako.png" ] && cp "${SHOT%.png}-mako.png" build/screenshots/notification-mako.png
if [ "${UPDATE_SCREENSHOTS:-0}" = 1 ]; then cp "$SHOT" packaging/screenshots/notification.png; cp "${SHOT%.png}-mako.png" packaging/screenshots/notification-mako.png; fi
echo "  ok: screenshot kept at build/screenshots/notification.png"
echo "notify-servers: all checks passed"
