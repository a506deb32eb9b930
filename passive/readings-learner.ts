// The readings the specification leaves open, learned from the first calls of the traffic (as
// core/learning learns them from a sample) before the passive judge (passive/judge.ts) judges
// anything: exchanges wait here until enough calls were seen to learn the readings from.
import type { Catalog } from '../openapi/catalog.ts';
import type { Contract } from '../openapi/contract.ts';
import type { ExchangeContext } from '../core/checks/index.ts';
import { callsIn } from '../core/checks/calls-in.ts';
import { OPEN_READINGS, type Readings } from '../core/checks/readings.ts';
import { DEFAULT_SETTLE_SECONDS } from '../core/checks/settling.ts';
import { indexSchemaRequirements } from '../core/checks/schema-requirements.ts';
import { detectCountReading, detectMinutesReading, detectTimerReading } from '../core/learning/call-readings.ts';
import { detectGetCallEnvelope } from '../core/learning/get-call-envelope.ts';
import { summarize, type DetectionSummary } from '../core/learning/detection.ts';
import type { Exchange } from '../core/transport/exchange.ts';
import type { Pending } from './exchange-rules.ts';

const ENVELOPE_SAMPLE = 20;

export interface LearnerOptions {
  catalog: Catalog;
  contract: Contract;
  settleSeconds: number | undefined;
  /** Calls to learn the readings from before judging; exchanges wait until then, at most `sampleExchanges`. */
  sampleCalls: number;
  sampleExchanges: number;
}

export class ReadingsLearner {
  /** What the checks judge under; undefined while the readings are still being learned. */
  context: ExchangeContext | undefined;
  summaries: DetectionSummary[] = [];
  private readonly waiting: Pending[] = [];
  private waitingCalls = 0;
  private envelopeLearned = false;
  /** Get Call answers judged before the envelope was learned, kept slim: judged for the envelope once it is. */
  private readonly envelopeWaiting: Array<{ exchange: Exchange; source: string }> = [];

  constructor(private readonly options: LearnerOptions) {}

  /** Exchanges waiting to be judged until the readings are learned. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Keeps an exchange until the readings are learned; true once enough wait to learn them from. */
  hold(pending: Pending): boolean {
    this.waiting.push(pending);
    if (!pending.bodyAbsent) this.waitingCalls += callsIn(pending.exchange).length;
    return this.waitingCalls >= this.options.sampleCalls || this.waiting.length >= this.options.sampleExchanges;
  }

  /** Learns the readings from the exchanges waiting, and hands them back to be judged. */
  learn(): Pending[] {
    const settleSeconds = this.options.settleSeconds ?? DEFAULT_SETTLE_SECONDS;
    const calls = this.waiting.flatMap((pending) => (pending.bodyAbsent ? [] : callsIn(pending.exchange)));
    const gets = this.waiting
      .filter((pending) => pending.exchange.operation === 'getCall' && !pending.bodyAbsent)
      .map((pending) => pending.exchange);
    const minutes = detectMinutesReading(calls);
    const participantCount = detectCountReading(calls);
    const timer = detectTimerReading(calls, settleSeconds);
    const envelope = detectGetCallEnvelope(gets);
    // No Get Call answer in the sample: the envelope is learned from the first ones that come.
    this.envelopeLearned = gets.length > 0;
    const readings: Readings = {
      ...OPEN_READINGS,
      minutes: minutes.accepted,
      participantCount: participantCount.accepted,
      getCallEnvelope: envelope.accepted,
      timer: timer.accepted,
    };
    for (const detection of [minutes, participantCount, envelope, timer]) detection.evidence = `recorded traffic: ${detection.evidence}`;
    this.summaries = [minutes, participantCount, envelope, timer].map(summarize);
    this.context = {
      contract: this.options.contract,
      schemaRequirements: indexSchemaRequirements(this.options.catalog, this.options.contract.document),
      readings,
      settleSeconds,
    };
    return this.waiting.splice(0);
  }

  /** Whether Get Call's envelope is learned (from the sample, or from the first Get Call answers after it). */
  get envelopeKnown(): boolean {
    return this.envelopeLearned;
  }

  /** Whether Get Call answers wait for the envelope to be learned from them. */
  get envelopeAwaited(): boolean {
    return !this.envelopeLearned && this.envelopeWaiting.length > 0;
  }

  /** Keeps a Get Call answer until the envelope is learned; true once enough wait to learn it from. */
  holdForEnvelope(exchange: Exchange, source: string): boolean {
    // The body is kept whole until the envelope is learned: at most ENVELOPE_SAMPLE of them.
    this.envelopeWaiting.push({ exchange, source });
    return this.envelopeWaiting.length >= ENVELOPE_SAMPLE;
  }

  /** Learns the envelope from the Get Call answers waiting, and hands them back to be judged for it. */
  learnEnvelope(): Array<{ exchange: Exchange; source: string }> {
    this.envelopeLearned = true;
    const detection = detectGetCallEnvelope(this.envelopeWaiting.map(({ exchange }) => exchange));
    detection.evidence = `recorded traffic: ${detection.evidence}`;
    this.summaries = [...this.summaries.filter((summary) => summary.subject !== 'get-call-envelope'), summarize(detection)];
    this.context = { ...this.context!, readings: { ...this.context!.readings, getCallEnvelope: detection.accepted } };
    return this.envelopeWaiting.splice(0);
  }
}
