# shellcheck shell=bash
# Mail addresses: which ones nobody reads.  Needs nothing.
#   placeholder ADDR  a made-up address (documentation domains, reserved
#                     top-level domains, localhost, "your.email"): no
#                     person behind it.  A patch by it is the sender's.
#   no_replies ADDR   a real person's identity whose mailbox takes no mail
#                     (GitHub's users.noreply.github.com, any noreply or
#                     no-reply address): a patch by it keeps its author,
#                     but it can never be the sender, whom replies reach.

placeholder() {
	case ${1,,} in
	'' | *'your.email'* | *@localhost | *@localhost.* | *@*.localdomain) return 0 ;;
	*@example.com | *@example.net | *@example.org | *.example | *@example) return 0 ;;
	*.invalid | *@invalid | *.test | *@test | *.local) return 0 ;;
	esac
	return 1
}

no_replies() {
	case ${1,,} in
	*noreply* | *no-reply*) return 0 ;;
	esac
	return 1
}
