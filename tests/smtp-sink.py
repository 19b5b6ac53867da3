#!/usr/bin/python3
"""A real SMTP server on 127.0.0.1 for the send tests (aiosmtpd).

usage: smtp-sink.py DIR
Listens on a free port of 127.0.0.1 and writes it to DIR/port.  Every
connection appends a line to DIR/connections; every message accepted is
written to DIR/NNN.eml as received, preceded by X-Envelope-From and one
X-Envelope-To header per RCPT TO.  While DIR/refuse-at holds a number N,
the Nth message offered from then on is refused (554) and the file
removed: a server that fails half way through a series.  Runs until
killed, or until the process that started it is gone (a test script that
stops early leaves no server).
"""
import os
import socket
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    ready = []

    class Recording(SMTP):
        def connection_made(self, transport):
            # Controller.start() connects once to itself: not a client.
            if ready:
                with open(os.path.join(out, "connections"), "a") as f:
                    f.write("%s:%d\n" % transport.get_extra_info("peername")[:2])
            super().connection_made(transport)

    class Sink:
        count = 0

        offered = 0

        async def handle_DATA(self, server, session, envelope):
            refuse = os.path.join(out, "refuse-at")
            if os.path.exists(refuse):
                Sink.offered += 1
                with open(refuse) as f:
                    at = int(f.read().strip() or 0)
                if Sink.offered >= at:
                    os.unlink(refuse)
                    Sink.offered = 0
                    return "554 5.7.1 refused by the test server"
            Sink.count += 1
            head = "X-Envelope-From: %s\n" % envelope.mail_from
            head += "".join("X-Envelope-To: %s\n" % r for r in envelope.rcpt_tos)
            body = envelope.original_content.decode("utf-8", "replace")
            body = body.replace("\r\n", "\n")
            path = os.path.join(out, "%03d.eml" % Sink.count)
            with open(path + ".tmp", "w") as f:
                f.write(head + body)
            os.rename(path + ".tmp", path)
            return "250 OK"

    class Recorder(Controller):
        def factory(self):
            return Recording(self.handler, **self.SMTP_kwargs)

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    ctl = Recorder(Sink(), hostname="127.0.0.1", port=port)
    ctl.start()
    ready.append(True)
    with open(os.path.join(out, "port.tmp"), "w") as f:
        f.write("%d\n" % port)
    os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
    parent = os.getppid()
    try:
        while os.getppid() == parent:
            time.sleep(1)
    finally:
        ctl.stop()


if __name__ == "__main__":
    main()
