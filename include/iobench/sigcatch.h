/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IOBENCH_SIGCATCH_H
#define IOBENCH_SIGCATCH_H

/*
 * Route signal `sig` to fn (no flags, nothing blocked while fn runs):
 * the one way the drivers and the runner set their stop handlers.
 */
void ib_sig_catch(int sig, void (*fn)(int));

#endif
