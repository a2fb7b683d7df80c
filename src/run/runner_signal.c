// SPDX-License-Identifier: GPL-2.0-only
/*
 * The runner's signals: SIGINT and SIGTERM ask the jobs to stop, a second
 * SIGINT kills them (runner_wait.c acts on it) or ends the run at once.
 */
#include <signal.h>
#include "iobench/sigcatch.h"
#include <string.h>
#include <unistd.h>
#include "iosched.h"
#include "runner_priv.h"

/*
 * The one piece of process-wide mutable state: set from signal handlers.
 * `runner_waiting` tells the handler the parent is in its wait loop, where a
 * second SIGINT is acted on (children killed, report printed); anywhere
 * else (laying out files, printing) a second SIGINT ends the run at once.
 */
volatile sig_atomic_t runner_stop_requested;
/* a job process: the signal that stopped it (its exit status is 128+sig) */
volatile sig_atomic_t runner_child_signal;
volatile sig_atomic_t runner_sigint_count;
volatile sig_atomic_t runner_waiting;
/* SIGUSR1: a report of the run so far (fio's), at the next wait-loop tick */
volatile sig_atomic_t runner_usr1;

/* _exit, not exit: called from the signal handler (async-signal-safe only). */
void runner_die_now(void)
{
	static const char msg[] = "\niobench: interrupted twice: exiting at once\n";
	ssize_t n;

	ib_iosched_restore();
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(IB_EXIT_INTERRUPTED);
}

static void on_signal(int sig)
{
	runner_stop_requested = 1;
	if (sig != SIGINT)
		return;
	runner_sigint_count++;
	if (runner_sigint_count > 2 || (runner_sigint_count > 1 && !runner_waiting))
		runner_die_now();
}

/* A job process: any stop signal just ends its I/O loop (it then drains). */
void runner_on_child_signal(int sig)
{
	runner_stop_requested = 1;
	runner_child_signal = sig;
}

void runner_set_handlers(void (*fn)(int))
{
	ib_sig_catch(SIGINT, fn);
	ib_sig_catch(SIGTERM, fn);
}

static void on_usr1(int sig)
{
	(void)sig;
	runner_usr1 = 1;
}

void runner_install_handlers(void)
{
	runner_set_handlers(on_signal);
	ib_sig_catch(SIGUSR1, on_usr1);
}
