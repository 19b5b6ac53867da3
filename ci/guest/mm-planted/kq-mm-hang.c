// SPDX-License-Identifier: GPL-2.0
/*
 * Planted in /mm by boot --selftest mm-hang: an mm selftest that never
 * returns (without the harness, whose own 30 s timeout would end it).  The
 * host's watchdog must stop the boot and name it.
 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("TAP version 13\n1..1\n# never_returns: waiting forever\n");
	fflush(stdout);
	for (;;)
		pause();
}
