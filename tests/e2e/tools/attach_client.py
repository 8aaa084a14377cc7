#!/usr/bin/env python3
"""Client of tests/e2e/attach/attach_server.c (attach.sh).

  attach_client.py SOCKET race        two "add"s on two connections at once,
                                      then "total N" (2, or 1 when raced)
  attach_client.py SOCKET many N      N "add"s one after the other, each
                                      answered "ok", then "total N'"
  attach_client.py SOCKET send LINE   one request, its answer
"""
import socket
import sys

TIMEOUT = 120


class Conn:
    """One connection; closing it closes the socket for good (a makefile
    keeps it open otherwise, and the worker serving it waits on)."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(TIMEOUT)
        self.s.connect(path)
        self.f = self.s.makefile("rw")

    def close(self):
        self.f.close()
        self.s.close()


def connect(path):
    c = Conn(path)
    return c, c.f


def ask(f, line):
    f.write(line + "\n")
    f.flush()
    return f.readline().strip()


def total(path):
    s, f = connect(path)
    v = ask(f, "get")
    s.close()
    return v


def main():
    path, mode = sys.argv[1], sys.argv[2]
    if mode == "race":
        a, fa = connect(path)
        # the server serves connections in turn: one per worker
        ask(fa, "pid")
        b, fb = connect(path)
        ask(fb, "pid")
        for f in (fa, fb):
            f.write("add\n")
            f.flush()
        print("replies", fa.readline().strip(), fb.readline().strip())
        a.close()
        b.close()
        print("total", total(path))
    elif mode == "many":
        n = int(sys.argv[3])
        s, f = connect(path)
        bad = sum(1 for _ in range(n) if ask(f, "add") != "ok")
        s.close()
        print("bad replies", bad)
        print("total", total(path))
    elif mode == "send":
        s, f = connect(path)
        print(ask(f, sys.argv[3]))
        s.close()
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
