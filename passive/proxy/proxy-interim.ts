// When a judging proxy left running writes its interim reports: every so many minutes, and on a signal.
// Apart from proxy.ts so that the command line's help (usage.ts) reads them without loading the proxy.

/** Often enough to follow a day's traffic, seldom enough that writing the report costs nothing. */
export const DEFAULT_REPORT_EVERY_MINUTES = 10;
/** The signal that asks for an interim report now (SIGHUP is left alone: a closed terminal sends it, and should still stop the proxy). */
export const REPORT_SIGNAL = 'SIGUSR1';
/** At most a week: Node's timers hold up to 2^31 - 1 ms (24.8 days). */
export const MAX_REPORT_EVERY_MINUTES = 10_080;
