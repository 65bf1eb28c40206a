import type { Probe } from './probe';
import { tokenExchangeProbes } from './token-exchange';

/** Every probe of a full certification run, in suite order. */
export const certificationProbes: readonly Probe[] = [...tokenExchangeProbes];
