/**
 * The statistics of time synchronisation (Zachary Booth Simpson's algorithm,
 * as the Retro Tank design cites it): turn round-trip samples into one clock
 * offset.
 *
 * One sample: the client stamps a request with its clock (`sentAt`), the
 * responder answers with its own time, and the reply arrives at `arrival`.
 * Then
 *
 *   rtt    = arrival − sentAt
 *   offset = serverTime + rtt / 2 − arrival
 *
 * which assumes the reply took half the round trip. The assumption is wrong
 * by half the difference between the two directions' delays, so a single
 * sample is only as good as the path is symmetric; many samples average that
 * error away. Samples that waited in a queue somewhere (a long round trip) are
 * the least trustworthy, so Simpson discards them before averaging.
 */

/** One completed request/reply exchange. */
export interface TimeSample {
  /** The client's clock when the request left, ms. */
  sentAt: number;
  /** Round trip, ms (≥ 0). */
  rtt: number;
  /** Offset estimate of this sample: responder's time minus client's time, ms. */
  offset: number;
}

/** Builds a sample from the raw times of one exchange. */
export function makeSample(sentAt: number, serverTime: number, arrival: number): TimeSample {
  const rtt = arrival - sentAt;
  return { sentAt, rtt, offset: serverTime + rtt / 2 - arrival };
}

export interface TimeEstimate {
  /** Add this to the client's clock to get the responder's (common game) time, ms. */
  offset: number;
  /** Median round trip of all samples, ms. */
  rttMedian: number;
  /** Root-mean-square distance of the round trips from their median, ms (Simpson's "standard deviation"). */
  rttSpread: number;
  /** Samples averaged (round trip ≤ median + rttSpread). */
  kept: number;
  /** Samples considered. */
  total: number;
  /** Sample standard deviation of the kept samples' offsets, ms (0 with one sample). */
  offsetSpread: number;
  /**
   * How far `offset` is likely to be from the truth because of path jitter,
   * ms: offsetSpread / √kept (the standard error of a mean). About 95% of
   * estimates fall within twice this. It cannot see a path that is
   * consistently asymmetric, which no two-way exchange can.
   */
  standardError: number;
}

/**
 * Simpson's estimate: sort by round trip, take the median, discard the
 * samples whose round trip is more than one standard deviation *above* the
 * median, and average the offsets of the rest.
 *
 * The cut is one-sided, as in Simpson's text ("samples above approximately
 * 1 standard-deviation ... are discarded"): a short round trip leaves little
 * room for asymmetry, so fast samples are the best ones and are never thrown
 * away. The spread is measured from the median rather than the mean so that a
 * few very late samples (say, 500 ms queued behind a download) cannot drag the
 * centre of the cut toward themselves; they only widen it, and still fall
 * outside it unless they are a large share of the window.
 *
 * Returns null for no samples. Pure; does not modify `samples`.
 */
export function estimateOffset(samples: readonly TimeSample[]): TimeEstimate | null {
  const total = samples.length;
  if (total === 0) return null;
  const rtts = samples.map((s) => s.rtt).sort((a, b) => a - b);
  const mid = total >> 1;
  const rttMedian = total % 2 === 1 ? (rtts[mid] as number) : ((rtts[mid - 1] as number) + (rtts[mid] as number)) / 2;
  let squares = 0;
  for (const r of rtts) squares += (r - rttMedian) * (r - rttMedian);
  const rttSpread = Math.sqrt(squares / total);
  const cut = rttMedian + rttSpread;

  let kept = 0;
  let sum = 0;
  for (const s of samples) {
    if (s.rtt <= cut) {
      kept++;
      sum += s.offset;
    }
  }
  // At least every sample at or below the median passes the cut, so kept ≥ 1.
  const offset = sum / kept;
  let deviations = 0;
  for (const s of samples) if (s.rtt <= cut) deviations += (s.offset - offset) * (s.offset - offset);
  const offsetSpread = kept > 1 ? Math.sqrt(deviations / (kept - 1)) : 0;
  return { offset, rttMedian, rttSpread, kept, total, offsetSpread, standardError: offsetSpread / Math.sqrt(kept) };
}
