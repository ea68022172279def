#!/usr/bin/python3
"""Tries headlines.service on `headlines run` WITHOUT systemd, and what a click starts under it.

For machines with no systemd as PID 1 and no user manager (containers, CI). The unit sets no
sandbox options: the reload child sandboxes itself, and everything the host starts for the user
(the browser a click opens, the launcher) must keep the user's normal rights. This script checks
both, under whatever the unit sets:

  1. the host fetches over loopback, writes its cache, state and runtime files, and stops with
     status 0 on SIGTERM; its reload child says it sandboxed itself (no_new_privs and seccomp,
     Landlock where the kernel has it);
  2. a click: with a private session bus, Xvfb and dunst started beside it, the host notifies a
     new headline, `dunstctl action 0` invokes the notification's default action, and the host
     starts the default browser (a .desktop file in XDG_DATA_HOME). That browser must run without
     no_new_privs and without a seccomp filter, write to the home folder, and map memory both
     writable and executable (a JavaScript JIT does).

Should the unit set any of these again, the script applies them with the mechanisms systemd uses,
so both checks run under them (all at once, then each alone):

  ProtectSystem=strict      every mount remounted read-only (private mount namespace)
  ProtectHome=read-only     (covered by the above: /home, /root, /run/user are read-only too)
  ReadWritePaths=           those folders bind-mounted read-write again
  PrivateTmp=yes            fresh tmpfs on /tmp and /var/tmp
  NoNewPrivileges=yes       prctl(PR_SET_NO_NEW_PRIVS)
  SystemCallFilter=@system-service   seccomp allow-list from `systemd-analyze syscall-filter`,
                            anything else kills the process (systemd's default action)
  SystemCallArchitectures=native     seccomp: non-native ABIs kill the process
  RestrictAddressFamilies=  seccomp: socket() of any other family fails with EAFNOSUPPORT
  MemoryDenyWriteExecute=yes seccomp: mmap with PROT_WRITE|PROT_EXEC, mprotect/pkey_mprotect
                            adding PROT_EXEC, shmat with SHM_EXEC fail with EPERM
  LockPersonality=yes       seccomp: personality() other than the current one fails with EPERM

It is an emulation, not systemd: what it cannot show is how a real user manager sets these up
(for instance the implied PrivateUsers=yes). Run as root (mount namespaces).
Usage: try-hardening.py --unit FILE --binary HEADLINES
"""
import argparse, ctypes, errno, http.server, os, shutil, signal, subprocess, sys, tempfile, threading, time
import seccomp

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS = 0x00020000
MS_RDONLY, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
PR_SET_NO_NEW_PRIVS = 38
PROT_WRITE, PROT_EXEC = 2, 4
SHM_EXEC = 0o100000
AF = {"AF_UNIX": 1, "AF_INET": 2, "AF_INET6": 10, "AF_NETLINK": 16}


def mount(src, target, fstype, flags, data=None):
    if libc.mount(src and src.encode(), target.encode(), fstype and fstype.encode(), flags,
                  data and data.encode()) != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"mount {target}: {os.strerror(e)}")


def unit_settings(path):
    settings = {}
    for line in open(path):
        line = line.strip()
        if line and not line.startswith(("#", "[")) and "=" in line:
            key, value = line.split("=", 1)
            settings[key] = value
    return settings


def syscall_group(name, seen=None):
    seen = set() if seen is None else seen
    if name in seen:
        return set()
    seen.add(name)
    out = subprocess.run(["systemd-analyze", "syscall-filter", name], capture_output=True, text=True, check=True).stdout
    calls = set()
    for line in out.splitlines()[1:]:
        word = line.strip()
        if not word or word.startswith("#"):
            continue
        calls |= syscall_group(word, seen) if word.startswith("@") else {word}
    return calls


def sandbox(options, settings, expand):
    """Runs in the child, before exec."""
    if {"ProtectSystem", "ProtectHome", "PrivateTmp"} & options:
        if libc.unshare(CLONE_NEWNS) != 0:
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNS)")
        mount(None, "/", None, MS_REC | MS_PRIVATE)
        if "PrivateTmp" in options:
            for d in ("/tmp", "/var/tmp"):
                mount("tmpfs", d, "tmpfs", 0, "mode=1777")
        targets = []
        if "ProtectSystem" in options:      # strict: the whole hierarchy but the API file systems
            targets = [m for m in mounts() if not m.startswith(("/proc", "/sys", "/dev"))
                       and m not in ("/tmp", "/var/tmp")]
        elif "ProtectHome" in options:
            targets = [m for m in mounts() if m.startswith(("/home", "/root", "/run/user"))] + \
                      [d for d in ("/home", "/root", "/run/user") if os.path.isdir(d)]
        for m in targets:
            if not os.path.isdir(m):
                continue
            if m not in mounts():
                mount(m, m, None, MS_BIND | MS_REC)
            try:
                mount(None, m, None, MS_REMOUNT | MS_BIND | MS_RDONLY)
            except OSError as e:
                if e.errno not in (errno.EACCES, errno.EPERM, errno.EINVAL):
                    raise
        if targets:
            for path in settings["ReadWritePaths"].split():
                path = expand(path)
                mount(path, path, None, MS_BIND)
                mount(None, path, None, MS_REMOUNT | MS_BIND)
    if "NoNewPrivileges" in options or options & {"SystemCallFilter", "SystemCallArchitectures",
                                                  "RestrictAddressFamilies", "MemoryDenyWriteExecute",
                                                  "LockPersonality"}:
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    A, C = seccomp.Arg, seccomp
    if "SystemCallArchitectures" in options:
        f = seccomp.SyscallFilter(seccomp.ALLOW)
        f.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL_PROCESS)
        f.load()
    if "RestrictAddressFamilies" in options:
        allowed = sorted(AF[name] for name in settings["RestrictAddressFamilies"].split())
        f = seccomp.SyscallFilter(seccomp.ALLOW)
        # Deny every family outside the list, as ranges between the allowed ones.
        lo = 0
        for fam in allowed + [64]:
            for n in range(lo, fam):
                f.add_rule(seccomp.ERRNO(errno.EAFNOSUPPORT), "socket", A(0, C.EQ, n))
            lo = fam + 1
        f.load()
    if "MemoryDenyWriteExecute" in options:
        f = seccomp.SyscallFilter(seccomp.ALLOW)
        wx = PROT_WRITE | PROT_EXEC
        f.add_rule(seccomp.ERRNO(errno.EPERM), "mmap", A(2, C.MASKED_EQ, wx, wx))
        f.add_rule(seccomp.ERRNO(errno.EPERM), "mprotect", A(2, C.MASKED_EQ, PROT_EXEC, PROT_EXEC))
        f.add_rule(seccomp.ERRNO(errno.EPERM), "pkey_mprotect", A(2, C.MASKED_EQ, PROT_EXEC, PROT_EXEC))
        f.add_rule(seccomp.ERRNO(errno.EPERM), "shmat", A(2, C.MASKED_EQ, SHM_EXEC, SHM_EXEC))
        f.load()
    if "LockPersonality" in options:
        # systemd allows personality(current) and the query personality(0xffffffff). A seccomp rule
        # cannot say "not equal", so every value above the current one fails here, the query too:
        # a little stricter than systemd, never more lenient.
        f = seccomp.SyscallFilter(seccomp.ALLOW)
        current = libc.personality(0xffffffff)
        f.add_rule(seccomp.ERRNO(errno.EPERM), "personality", A(0, C.GT, current))
        if current > 0:
            f.add_rule(seccomp.ERRNO(errno.EPERM), "personality", A(0, C.LT, current))
        f.load()
    # Last: the allow-list would also apply to the Python code loading the other filters.
    if "SystemCallFilter" in options:
        f = seccomp.SyscallFilter(seccomp.KILL_PROCESS)
        for call in sorted(syscall_group(settings["SystemCallFilter"])):
            try:
                f.add_rule(seccomp.ALLOW, call)
            except (RuntimeError, ValueError):
                pass    # not a system call of this architecture
        f.load()

def mounts():
    out = []
    for line in open("/proc/self/mountinfo"):
        out.append(line.split()[4].replace("\\040", " "))
    return sorted(set(out), key=len)


def rss(title, date):
    return f"""<?xml version="1.0"?><rss version="2.0"><channel><title>Local</title><link>http://127.0.0.1/</link>
<item><title>{title}</title><link>https://news.example.com/{title.replace(" ", "-")}</link><guid>{title}</guid>
<pubDate>{date}</pubDate></item></channel></rss>"""


# The options this emulation knows, with the one value of each it knows how to apply.
KNOWN = {"ProtectSystem": "strict", "ProtectHome": "read-only", "PrivateTmp": "yes", "NoNewPrivileges": "yes",
         "SystemCallFilter": "@system-service", "SystemCallArchitectures": "native",
         "RestrictAddressFamilies": None, "MemoryDenyWriteExecute": "yes", "LockPersonality": "yes"}

# The fake browser: what it may do, written where it can always write (the runtime folder).
BROWSER = """#!/bin/sh
out="$XDG_RUNTIME_DIR/browser.txt"
{
  echo "url $1"
  grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status
  if echo probe > "$HOME/probe-written-by-the-browser" 2>/dev/null; then echo "home writable"; else echo "home read-only"; fi
  /usr/bin/python3 -c '
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
p = libc.mmap(None, 4096, 7, 0x22, -1, 0)   # PROT_READ|PROT_WRITE|PROT_EXEC, MAP_PRIVATE|MAP_ANONYMOUS
print("wx-memory", "refused" if p in (None, 2**64 - 1) else "mapped")'
} > "$out.tmp" 2>&1
mv "$out.tmp" "$out"
"""


class Feed:
    """The feed over loopback (the host's network path: libcurl, sockets, GNetworkMonitor)."""
    def __init__(self):
        self.serve("Hardened host fetched this", "Mon, 30 Nov 2026 10:00:00 GMT")
        feed = self
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200); self.send_header("Content-Type", "application/rss+xml")
                self.send_header("Content-Length", str(len(feed.body))); self.end_headers(); self.wfile.write(feed.body)
            def log_message(self, *a): pass
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/feed.rss"

    def serve(self, title, date):
        self.title = title
        self.body = rss(title, date).encode()


class Desktop:
    """A private session bus, Xvfb and dunst, outside any sandbox: what a click needs."""
    def __init__(self, runtime):
        self.procs = []
        conf = f"{runtime}/bus.conf"
        with open(conf, "w") as c:
            c.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path={runtime}/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
</policy></busconfig>""")
        self.procs.append(subprocess.Popen(["dbus-daemon", f"--config-file={conf}", "--nofork"],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self.bus = f"unix:path={runtime}/bus"
        r, w = os.pipe()
        self.procs.append(subprocess.Popen(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp"], pass_fds=[w],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        os.close(w)
        # The whole line: Xvfb dies of SIGPIPE if the pipe closes before its newline.
        with os.fdopen(r) as displayfd:
            self.display = ":" + displayfd.readline().strip()
        with open(f"{runtime}/dunstrc", "w") as c:
            c.write("[global]\n    notification_limit = 5\n")
        self.env = {"PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": self.bus, "DISPLAY": self.display}
        self.log = f"{runtime}/dunst.log"
        self.procs.append(subprocess.Popen(["dunst", "-config", f"{runtime}/dunstrc"], env=self.env,
                                           stdout=open(self.log, "w"), stderr=subprocess.STDOUT))
        if not wait(lambda: self.dunstctl("count", "displayed") is not None, 10):
            self.stop()
            raise RuntimeError("dunst did not come up on the private bus: " + open(self.log).read())

    def dunstctl(self, *args):
        p = subprocess.run(["dunstctl", *args], env=self.env, capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else None

    def stop(self):
        for p in reversed(self.procs):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


def wait(condition, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def run_host(binary, options, settings, feed, click):
    """One host under `options`; returns the problems found (none: it passed)."""
    home = tempfile.mkdtemp(prefix="headlines-hardening-", dir="/home")
    runtime = tempfile.mkdtemp(prefix="headlines-hardening-", dir="/run/user")
    desktop = None
    try:
        os.makedirs(f"{home}/.config/headlines")
        with open(f"{home}/.config/headlines/headlines.conf", "w") as c:
            c.write(f"[source]\nprovider = feeds\nfeeds = {feed.url}\n[notify]\nenabled = {'true' if click else 'false'}\n"
                    f"[widget world]\nprovider = feeds\nfeeds = {feed.url}\n")
        expand = lambda p: p.replace("%h", home).replace("%t", runtime)
        if "ExecStartPre" in settings:      # "+": runs outside the sandbox
            subprocess.run([expand(w) for w in settings["ExecStartPre"].lstrip("+-@:!").split()], check=True)
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime,
               "DBUS_SESSION_BUS_ADDRESS": "disabled", "LC_ALL": "C.UTF-8"}
        if click:
            desktop = Desktop(runtime)
            env.update(DBUS_SESSION_BUS_ADDRESS=desktop.bus, DISPLAY=desktop.display,
                       XDG_DATA_HOME=f"{home}/.local/share", XDG_DATA_DIRS=f"{home}/.local/share:/usr/share")
            os.makedirs(f"{home}/.local/share/applications")
            with open(f"{home}/browser", "w") as b:
                b.write(BROWSER)
            os.chmod(f"{home}/browser", 0o755)
            with open(f"{home}/.local/share/applications/fake-browser.desktop", "w") as d:
                d.write(f"[Desktop Entry]\nType=Application\nName=Fake Browser\nExec={home}/browser %u\n"
                        "MimeType=x-scheme-handler/http;x-scheme-handler/https;\nNoDisplay=true\n")
            with open(f"{home}/.config/mimeapps.list", "w") as m:
                m.write("[Default Applications]\nx-scheme-handler/http=fake-browser.desktop\n"
                        "x-scheme-handler/https=fake-browser.desktop\n")
        # A click: a story dated now, news worth a notification.
        feed.serve(*(("Clicked story", time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime())) if click
                     else ("Hardened host fetched this", "Mon, 30 Nov 2026 10:00:00 GMT")))
        p = subprocess.Popen([binary, "run", "--verbose"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             preexec_fn=lambda: sandbox(options, settings, expand))
        problems = []
        # With a [widget NAME] group the widgets are the groups, each with its own folders.
        cache = f"{home}/.cache/headlines/widgets/world/headlines.json"
        widget = f"{runtime}/headlines-widget-world/bar/widget.json"
        wait(lambda: (os.path.exists(cache) and os.path.exists(widget)) or p.poll() is not None, 20)
        browser = f"{runtime}/browser.txt"
        if click and p.poll() is None:
            if not wait(lambda: (desktop.dunstctl("count", "displayed") or "0") != "0", 10):
                problems.append("dunst displayed no notification")
            elif desktop.dunstctl("action", "0") is None:
                problems.append("dunstctl action 0 failed")
            elif not wait(lambda: os.path.exists(browser), 10):
                problems.append("the click started no browser")
        time.sleep(0.5)
        alive = p.poll() is None
        if alive:
            p.send_signal(signal.SIGTERM)
        try:
            status = p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill(); status = p.wait()
        log = p.stdout.read().decode(errors="replace")
        if not alive:
            problems.append(f"the host died by itself (status {status})")
        if status != 0:
            problems.append(f"exit status {status} after SIGTERM" + (" (SIGSYS: a system call was filtered)" if status == -31 else ""))
        if not os.path.exists(cache) or feed.title not in open(cache).read():
            problems.append("no cache with the fetched headline in ~/.cache/headlines/widgets/world")
        if not os.path.exists(f"{home}/.local/state/headlines/widgets/world/ledger.json"):
            problems.append("no ledger in ~/.local/state/headlines/widgets/world")
        if not os.path.exists(widget):
            problems.append("no bar lines in the [widget world] runtime folder (%t/headlines-widget-world/bar)")
        sandboxed = [l for l in log.splitlines() if "reload child sandboxed: no_new_privs" in l]
        if not sandboxed or "seccomp filter" not in sandboxed[0]:
            problems.append("the reload child did not log that it sandboxed itself (no_new_privs, seccomp)")
        if click and os.path.exists(browser):
            seen = open(browser).read()
            for wanted, what in (("url https://news.example.com/Clicked-story", "the article's URL"),
                                 ("NoNewPrivs:\t0", "no no_new_privs"), ("Seccomp:\t0", "no seccomp filter"),
                                 ("home writable", "a writable home"), ("wx-memory mapped", "writable and executable memory")):
                if wanted not in seen:
                    problems.append(f"the browser a click started lacks {what}: " + seen.strip().replace("\n", "; "))
        if problems:
            problems.append("host log: " + log.strip().replace("\n", "\n  host log: "))
        elif sandboxed:
            print("     " + sandboxed[0].split("headlines: ", 1)[-1])
        return problems
    finally:
        if desktop:
            desktop.stop()
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unit", required=True)
    ap.add_argument("--binary", required=True)
    args = ap.parse_args()
    settings = unit_settings(args.unit)
    for key, value in KNOWN.items():
        if key in settings and value is not None and settings[key] != value:
            sys.exit(f"the unit sets {key}={settings[key]}, this emulation knows {key}={value}")
    unit_options = [o for o in KNOWN if o in settings]
    binary = os.path.realpath(args.binary)
    feed = Feed()
    # The home must be where a real one is (ProtectHome= covers /home, and PrivateTmp= hides /tmp).
    os.makedirs("/home", exist_ok=True)
    os.makedirs("/run/user", exist_ok=True)
    runs = [set(unit_options)] + ([{o} for o in unit_options] if len(unit_options) > 1 else [])
    failures = 0
    for options in runs:
        label = ("the unit's options at once: " + ", ".join(sorted(options)) if len(options) > 1
                 else next(iter(options)) + "=" + settings[next(iter(options))] if options
                 else "the unit as written (no sandbox options)")
        for click in (False, True):
            problems = run_host(binary, options, settings, feed, click)
            what = ("a click on its notification: the browser it started has no no_new_privs, no seccomp filter, "
                    "a writable home and writable+executable memory" if click else
                    "the host and its [widget world] fetched over loopback, wrote cache, state and runtime files, "
                    "exited 0 on SIGTERM; its reload child sandboxed itself")
            if problems:
                failures += 1
                print(f"FAIL {label}, {'click' if click else 'reload'}: " + "\n  ".join(problems))
            else:
                print(f"ok   {label}: {what}")
    feed.server.shutdown()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
