#!/usr/bin/env python3
"""mkreply.py MBOX PARENT.eml "Name <addr>" TEXT: append to MBOX a reply to
the message PARENT.eml from that person, quoting nothing, whose body is
TEXT (the trailers a reviewer would write).  For the trailers tests."""
import email
import email.policy
import email.utils
import mailbox
import sys
from email.message import EmailMessage

box, parent_path, who, text = sys.argv[1:5]
with open(parent_path, "rb") as f:
    parent = email.message_from_binary_file(f, policy=email.policy.default)
m = EmailMessage()
m["From"] = who
m["To"] = str(parent["from"])
m["Subject"] = "Re: " + str(parent["subject"])
m["Date"] = email.utils.formatdate(1796342400)
m["Message-Id"] = email.utils.make_msgid(domain="reply.test")
m["In-Reply-To"] = str(parent["message-id"])
m["References"] = str(parent["message-id"])
m.set_content("On a day, somebody wrote:\n> a patch\n\n" + text + "\n")
mb = mailbox.mbox(box)
mb.add(m)
mb.flush()
