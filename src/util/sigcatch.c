// SPDX-License-Identifier: GPL-2.0-only
/* Signal handlers set one way (sigcatch.h). */
#include <signal.h>
#include <string.h>
#include "iobench/sigcatch.h"

void ib_sig_catch(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}
