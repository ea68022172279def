#!/usr/bin/python3
"""Tries the hardening of headlines.service on `headlines run` WITHOUT systemd.

For machines with no systemd as PID 1 and no user manager (containers, CI): it applies the
mechanisms systemd itself uses for each option, then execs the host, and checks the host fetched,
wrote its cache and state, and stopped with status 0 on SIGTERM:

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


RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Local</title><link>http://127.0.0.1/</link>
<item><title>Hardened host fetched this</title><link>http://127.0.0.1/a</link><guid>a</guid>
<pubDate>Mon, 30 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unit", required=True)
    ap.add_argument("--binary", required=True)
    args = ap.parse_args()
    settings = unit_settings(args.unit)
    every = ["ProtectSystem", "ProtectHome", "PrivateTmp", "NoNewPrivileges", "SystemCallFilter",
             "SystemCallArchitectures", "RestrictAddressFamilies", "MemoryDenyWriteExecute", "LockPersonality"]
    expected = {"ProtectSystem": "strict", "ProtectHome": "read-only", "PrivateTmp": "yes", "NoNewPrivileges": "yes",
                "SystemCallFilter": "@system-service", "SystemCallArchitectures": "native",
                "MemoryDenyWriteExecute": "yes", "LockPersonality": "yes"}
    for key, value in expected.items():
        if settings.get(key) != value:
            sys.exit(f"the unit sets {key}={settings.get(key)}, this emulation knows {key}={value}")
    binary = os.path.realpath(args.binary)

    # The feed, over loopback (the host's network path: libcurl, sockets, GNetworkMonitor).
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = RSS.encode()
            self.send_response(200); self.send_header("Content-Type", "application/rss+xml")
            self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
        def log_message(self, *a): pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    # The home must be where a real one is (ProtectHome= covers /home, and PrivateTmp= hides /tmp).
    os.makedirs("/home", exist_ok=True)
    os.makedirs("/run/user", exist_ok=True)
    failures = 0
    for options in [set(every)] + [{o} for o in every]:
        label = "all options at once" if len(options) > 1 else next(iter(options)) + "=" + settings[next(iter(options))]
        home = tempfile.mkdtemp(prefix="headlines-hardening-", dir="/home")
        runtime = tempfile.mkdtemp(prefix="headlines-hardening-", dir="/run/user")
        try:
            os.makedirs(f"{home}/.config/headlines")
            with open(f"{home}/.config/headlines/headlines.conf", "w") as c:
                feed = f"http://127.0.0.1:{server.server_port}/feed.rss"
                c.write(f"[source]\nprovider = feeds\nfeeds = {feed}\n[notify]\nenabled = false\n"
                        f"[widget world]\nprovider = feeds\nfeeds = {feed}\n")
            expand = lambda p: p.replace("%h", home).replace("%t", runtime)
            # ExecStartPre=+/bin/mkdir -p ...: runs outside the sandbox
            pre = settings["ExecStartPre"].lstrip("+-@:!").split()
            subprocess.run([expand(w) for w in pre], check=True)
            env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime,
                   "DBUS_SESSION_BUS_ADDRESS": "disabled", "LC_ALL": "C.UTF-8"}
            p = subprocess.Popen([binary, "run"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 preexec_fn=lambda: sandbox(options, settings, expand))
            # With a [widget NAME] group the widgets are the groups, each with its own folders.
            cache = f"{home}/.cache/headlines/widgets/world/headlines.json"
            widget = f"{runtime}/headlines-widget-world/timeline.json"
            deadline = time.time() + 20
            while time.time() < deadline and not (os.path.exists(cache) and os.path.exists(widget)) and p.poll() is None:
                time.sleep(0.2)
            time.sleep(0.5)
            alive = p.poll() is None
            if alive:
                p.send_signal(signal.SIGTERM)
            try:
                status = p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill(); status = p.wait()
            log = p.stdout.read().decode(errors="replace")
            problems = []
            if not alive:
                problems.append(f"the host died by itself (status {status})")
            if status != 0:
                problems.append(f"exit status {status} after SIGTERM" + (" (SIGSYS: a system call was filtered)" if status == -31 else ""))
            if not os.path.exists(cache) or "Hardened host fetched this" not in open(cache).read():
                problems.append("no cache with the fetched headline in ~/.cache/headlines/widgets/world")
            if not os.path.exists(f"{home}/.local/state/headlines/widgets/world/ledger.json"):
                problems.append("no ledger in ~/.local/state/headlines/widgets/world")
            if not os.path.exists(f"{runtime}/headlines-widget-world/timeline.json"):
                problems.append("no timeline.json in the [widget world] runtime folder (%t/headlines-widget-world)")
            if problems:
                failures += 1
                print(f"FAIL {label}: " + "; ".join(problems))
                print("  host log: " + log.strip().replace("\n", "\n  host log: "))
            else:
                print(f"ok   {label}: the host and its [widget world] fetched over loopback, wrote cache, state and runtime files, exited 0 on SIGTERM")
        finally:
            shutil.rmtree(home, ignore_errors=True)
            shutil.rmtree(runtime, ignore_errors=True)
    server.shutdown()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
