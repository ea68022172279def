#!/usr/bin/env bash
# Hostile world: the sandbox sits on the parser, not on the browser; a short interval does not
# spend the day's budget in minutes. Real programs against a loopback server:
#   1-5. a parser taken over: a probe preloaded into the reload child (LD_PRELOAD) runs inside
#        libxml2's xmlCtxtReadMemory, that is while the child parses the server's feed, and tries
#        to read ~/.ssh/id_rsa, write ~/.bashrc-planted, run /bin/sh, ptrace another process and
#        open a raw packet socket. Each is refused in `headlines-reload` (its
#        normal argv) while the reload still lists the feed; the same probe in the unsandboxed
#        `headlines fetch` does each, so the probe itself works;
#   6.   the child a host starts (`headlines run --verbose`) says how it sandboxed itself, and the
#        probe in it is refused too;
#   7.   a subscription file (`feeds-from`) outside every folder the child may read once
#        sandboxed is read before the sandbox, so its feeds still come;
#   8.   the unit, emulated by packaging/systemd/try-hardening.py: a click on a notification
#        (dunst on a private bus) starts a browser without no_new_privs and with a writable home;
# One ROW per case (see scripts/hostile.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
FETCH=$HEADLINES_BIN/headlines-reload
. scripts/lib/common.sh
clip() { local s=$1; [ ${#s} -le 200 ] && printf '%s' "$s" || printf '%s…' "${s:0:199}"; }

suite_dir hostile-sandbox
isolated_home "$WORK"
export HOME=$WORK/home DBUS_SESSION_BUS_ADDRESS=unix:path=$WORK/no-bus
mkdir -p "$HOME"/{.ssh,elsewhere} "$WORK/config/headlines" "$WORK/www"
printf 'not a real key, but nobody but its owner may read it\n' >"$HOME/.ssh/id_rsa"
chmod 600 "$HOME/.ssh/id_rsa"

# The probe: the first xmlCtxtReadMemory call does the five things, prints what each gave, then
# parses as libxml2 would.
cat >"$WORK/probe.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *outcome(int ok, int e) { return ok ? "ok" : strerrorname_np(e); }

static void status_field(const char *name, char *out, size_t size) {
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    snprintf(out, size, "?");
    if (!f) return;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, name, strlen(name)) == 0) snprintf(out, size, "%d", atoi(line + strlen(name)));
    fclose(f);
}

static void probe(void) {
    char read_r[32], write_r[32], exec_r[32], ptrace_r[32], packet_r[32], nnp[8], seccomp[8];
    int fd = open(getenv("PROBE_SECRET"), O_RDONLY);
    snprintf(read_r, sizeof read_r, "%s", outcome(fd >= 0, errno));
    if (fd >= 0) close(fd);
    fd = open(getenv("PROBE_PLANT"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    snprintf(write_r, sizeof write_r, "%s", outcome(fd >= 0, errno));
    if (fd >= 0) close(fd);
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", "exit 0", (char *)NULL);
        _exit(errno > 0 && errno < 120 ? errno : 120);
    }
    int st = 0;
    waitpid(child, &st, 0);
    snprintf(exec_r, sizeof exec_r, "%s", outcome(WIFEXITED(st) && WEXITSTATUS(st) == 0, WIFEXITED(st) ? WEXITSTATUS(st) : 0));
    pid_t tracee = (pid_t)atoi(getenv("PROBE_TRACEE"));
    long attached = ptrace(PTRACE_ATTACH, tracee, 0, 0);
    snprintf(ptrace_r, sizeof ptrace_r, "%s", outcome(attached == 0, errno));
    if (attached == 0) { waitpid(tracee, &st, 0); ptrace(PTRACE_DETACH, tracee, 0, 0); }
    int s = socket(AF_PACKET, SOCK_RAW, 0);
    snprintf(packet_r, sizeof packet_r, "%s", outcome(s >= 0, errno));
    if (s >= 0) close(s);
    status_field("NoNewPrivs:", nnp, sizeof nnp);
    status_field("Seccomp:", seccomp, sizeof seccomp);
    char line[512];
    int n = snprintf(line, sizeof line, "probe: read=%s write=%s exec=%s ptrace=%s packet=%s nnp=%s seccomp=%s\n",
                     read_r, write_r, exec_r, ptrace_r, packet_r, nnp, seccomp);
    if (write(2, line, n) < 0) {}
}

void *xmlCtxtReadMemory(void *ctxt, const char *buffer, int size, const char *url, const char *encoding, int options) {
    static int probed;
    if (!probed) { probed = 1; probe(); }
    void *(*real)(void *, const char *, int, const char *, const char *, int) = dlsym(RTLD_NEXT, "xmlCtxtReadMemory");
    return real(ctxt, buffer, size, url, encoding, options);
}
C
if ! cc -shared -fPIC -O1 -o "$WORK/probe.so" "$WORK/probe.c" -ldl 2>"$WORK/cc.err"; then
    row sandbox "the probe library" "$(clip "cc failed: $(cat "$WORK/cc.err")")" FAIL
    exit 1
fi
sleep 300 & TRACEE=$!
PIDS+=("$TRACEE")

# The loopback server's one feed.
python3 - "$WORK/www" <<'PY'
import email.utils, sys, time
now = email.utils.formatdate(time.time(), usegmt=True)
open(f"{sys.argv[1]}/feed.rss", "w").write(
    '<?xml version="1.0"?><rss version="2.0"><channel><title>Local</title>'
    f'<item><title>Parsed inside the sandbox</title><link>https://news.example.com/a</link><pubDate>{now}</pubDate></item>'
    '</channel></rss>')
PY
start_news_server "$WORK/requests.log" --root "$WORK/www"
CONF=$WORK/config/headlines/headlines.conf
printf '[source]\nprovider = feeds\nfeeds = http://127.0.0.1:%s/feed.rss\ntimeout = 5s\n[notify]\nenabled = false\n' "$PORT" >"$CONF"
fresh() { rm -rf "$XDG_CACHE_HOME/headlines" "$XDG_STATE_HOME/headlines" "$HOME/.bashrc-planted"; }
probe_env=(LD_PRELOAD="$WORK/probe.so" PROBE_SECRET="$HOME/.ssh/id_rsa" PROBE_PLANT="$HOME/.bashrc-planted" PROBE_TRACEE="$TRACEE")
field() { sed -n "s/.*probe: .*\b$1=\([^ ]*\).*/\1/p" "$2" | head -n 1; }

# --- 1-5: the probe in the reload child, and in the unsandboxed CLI ---------------------------
fresh
env "${probe_env[@]}" timeout 30 "$BIN" --config "$CONF" fetch >"$WORK/cli.out" 2>"$WORK/cli.err"
cli_planted=$([ -e "$HOME/.bashrc-planted" ] && echo yes || echo no)
fresh
env "${probe_env[@]}" timeout 30 "$FETCH" --config "$CONF" >"$WORK/child.out" 2>"$WORK/child.err"
child_status=$?
child_planted=$([ -e "$HOME/.bashrc-planted" ] && echo yes || echo no)
reloaded=no
grep -q 'Parsed inside the sandbox' "$WORK/child.out" && grep -q 'Parsed inside the sandbox' "$XDG_CACHE_HOME/headlines/headlines.json" 2>/dev/null && reloaded=yes
probe_row() { # fault key refusal
    local fault=$1 key=$2 refusal=$3 child cli
    child=$(field "$key" "$WORK/child.err"); cli=$(field "$key" "$WORK/cli.err")
    local seen="reload child: $key=${child:-none} (NoNewPrivs $(field nnp "$WORK/child.err"), Seccomp $(field seccomp "$WORK/child.err")), the reload listed the feed and wrote its cache: $reloaded (exit $child_status); unsandboxed \`headlines fetch\`: $key=${cli:-none}"
    if [ "$child" = "$refusal" ] && [ "$cli" = ok ] && [ "$reloaded" = yes ] && [ "$child_status" = 0 ]; then
        row sandbox "$fault" "$seen" PASS
    else
        row sandbox "$fault" "$(clip "$seen; child stderr: $(cat "$WORK/child.err")")" FAIL
    fi
}
probe_row "a parser taken over reads ~/.ssh/id_rsa" read EACCES
if [ "$child_planted" = no ] && [ "$cli_planted" = yes ]; then
    probe_row "a parser taken over writes ~/.bashrc-planted" write EACCES
else
    row sandbox "a parser taken over writes ~/.bashrc-planted" "the file exists after the child: $child_planted; after the CLI: $cli_planted" FAIL
fi
probe_row "a parser taken over runs /bin/sh" exec EPERM
probe_row "a parser taken over ptrace-attaches another process" ptrace EPERM
probe_row "a parser taken over opens a raw AF_PACKET socket" packet EAFNOSUPPORT

# --- 6: the child a host starts -----------------------------------------------------------------
fresh
env "${probe_env[@]}" "$BIN" --config "$CONF" run --verbose >"$WORK/host6.log" 2>&1 & HOST=$!
PIDS+=("$HOST")
wait_for "the host's reload" 20 grep -q 'reload ok' "$WORK/host6.log"
kill -TERM "$HOST" 2>/dev/null; wait "$HOST" 2>/dev/null
said=$(grep -o 'reload child sandboxed: .*' "$WORK/host6.log" | head -n 1)
read6=$(field read "$WORK/host6.log")
if [[ $said == "reload child sandboxed: no_new_privs, "*", seccomp filter" ]] && [ "$read6" = EACCES ] && grep -q 'reload ok' "$WORK/host6.log"; then
    row sandbox "the reload child a host starts (headlines run --verbose)" "$(clip "the host logged \"$said\"; the probe in that child: read=$read6; reload ok")" PASS
else
    row sandbox "the reload child a host starts (headlines run --verbose)" "$(clip "sandbox line: ${said:-none}; probe read=${read6:-none}; log: $(tr '\n' ' ' <"$WORK/host6.log")")" FAIL
fi

# --- 7: a subscription file outside the allowance ---------------------------------------------
fresh
printf 'http://127.0.0.1:%s/feed.rss\n' "$PORT" >"$HOME/elsewhere/urls"
SUBS=$WORK/subs.conf
printf '[source]\nprovider = feeds\nfeeds-from = ~/elsewhere/urls\ntimeout = 5s\n[notify]\nenabled = false\n' >"$SUBS"
timeout 30 "$FETCH" --config "$SUBS" --verbose >"$WORK/subs.out" 2>"$WORK/subs.err"
if grep -q 'Parsed inside the sandbox' "$WORK/subs.out" && grep -q 'reload child sandboxed' "$WORK/subs.err"; then
    row sandbox "feeds-from = ~/elsewhere/urls, outside every folder the sandbox allows" "read before the sandbox: the feed it lists was fetched and parsed in the sandboxed child" PASS
else
    row sandbox "feeds-from = ~/elsewhere/urls, outside every folder the sandbox allows" "$(clip "report: $(cat "$WORK/subs.out"); stderr: $(cat "$WORK/subs.err")")" FAIL
fi

# --- 8: the browser a click starts under the emulated unit -------------------------------------
if [ "$(id -u)" -ne 0 ] || ! /usr/bin/python3 -c 'import seccomp' 2>/dev/null; then
    row sandbox "a browser started by a click under the emulated unit" "cannot run: try-hardening.py needs root and python3-seccomp (scripts/install-deps.sh)" FAIL
elif timeout 120 /usr/bin/python3 packaging/systemd/try-hardening.py --unit packaging/systemd/headlines.service \
        --binary "$BIN" >"$WORK/unit.log" 2>&1 && grep -q '^ok .*a click on its notification' "$WORK/unit.log"; then
    row sandbox "a browser started by a click under the emulated unit" "$(clip "dunstctl action 0 made the host start the default browser: no no_new_privs, no seccomp filter, it wrote ~/probe-written-by-the-browser and mapped W+X memory; $(grep -c '^ok' "$WORK/unit.log") checks ok")" PASS
else
    row sandbox "a browser started by a click under the emulated unit" "$(clip "$(grep -E '^(FAIL|Traceback)|Error' "$WORK/unit.log" | head -n 3 | tr '\n' ' ')")" FAIL
fi
