#!/usr/bin/env python3
"""Stand-ins and probes for scripts/suites/bar-binary.sh (headlines-bar against a fake host).

  host ARGS...             a fake `headlines start` and the host it starts: logs "PID ARGS" to
                           $FAKE_HOST_LOG, takes host.lock (exits 0 if another holds it), writes
                           "PID host\n", and stays until killed or its parent (the bar) dies.
  hold LOCK                holds LOCK like a host and sleeps (a host the test started itself).
  publish FILE TEXT        atomic write (temp file + rename), as the host publishes a bar line.
  rewrite FILE TEXT        the same bytes written in place (open, write, close).
  measure OUT FILE TEXT    publishes TEXT, prints how many ms until OUT ends with it.
  switches PID             voluntary + nonvoluntary context switches over every thread.
  syscall PID              the number of the system call PID is blocked in (7 = poll on x86_64).
"""
import ctypes, fcntl, os, signal, sys, time


def take_lock(path):
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit(0)
    os.ftruncate(fd, 0)
    os.pwrite(fd, b"%d host\n" % os.getpid(), 0)
    return fd


def publish(path, text):
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "wb") as f:
        f.write(text.encode())
    os.rename(tmp, path)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "host":
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: dies with the bar
        if os.getppid() == 1:  # the bar died before prctl took effect
            sys.exit(0)
        with open(os.environ["FAKE_HOST_LOG"], "a") as log:
            log.write("%d %s\n" % (os.getpid(), " ".join(args)))
        if "ALL_HOSTS" in os.environ:  # every PID ever, for the suite's cleanup
            with open(os.environ["ALL_HOSTS"], "a") as log:
                log.write("%d\n" % os.getpid())
        rundir = os.environ["XDG_RUNTIME_DIR"] + "/headlines"
        fd = take_lock(rundir + "/host.lock")
        while True:
            signal.pause()
    elif cmd == "hold":
        fd = take_lock(args[0])
        print(os.getpid(), flush=True)
        while True:
            signal.pause()
    elif cmd == "publish":
        publish(args[0], args[1])
    elif cmd == "rewrite":
        with open(args[0], "wb") as f:
            f.write(args[1].encode())
    elif cmd == "measure":
        out, path, text = args
        want = text.encode()
        start = time.monotonic()
        publish(path, text)
        while time.monotonic() - start < 2:
            with open(out, "rb") as f:
                if f.read().endswith(want):
                    print("%.1f" % ((time.monotonic() - start) * 1000))
                    return
            time.sleep(0.001)
        print("9999")
    elif cmd == "switches":
        total = 0
        for tid in os.listdir("/proc/%s/task" % args[0]):
            for line in open("/proc/%s/task/%s/status" % (args[0], tid)):
                if "ctxt_switches" in line:
                    total += int(line.split()[1])
        print(total)
    elif cmd == "syscall":
        print(open("/proc/%s/syscall" % args[0]).read().split()[0])
    else:
        sys.exit("unknown command " + cmd)


main()
