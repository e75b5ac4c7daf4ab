/**
 * The calls a client has running, and one timer for all their deadlines instead of a timer per
 * call. Calls with the same timeout start in the order their deadlines fall, so each timeout keeps
 * its calls in a list (a call's record is its own link: adding and removing allocate nothing), and
 * only the first of each list is ever looked at; the timer is set for the earliest of those, and
 * only moved when a call's deadline falls before it. The timer keeps the process alive only while
 * calls run. Revision-independent; copied verbatim into generated output.
 */
import type { RunningCall } from "./running-call.js";

/** The longest delay `setTimeout` takes (a longer one fires at once): a later deadline waits in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** Lists of a timeout no call runs with are dropped beyond this many (each call may give its own). */
const KEPT_EMPTY_LISTS = 4;

class Lane {
  head: RunningCall | null = null;
  tail: RunningCall | null = null;
}

type Timer = ReturnType<typeof setTimeout>;

export class Deadlines {
  /** The running calls by timeout (0: the calls that wait for ever, in a list never timed). */
  private readonly lanes = new Map<number, Lane>();
  private count = 0;
  private timer: Timer | null = null;
  /** The deadline the timer is set for, and the call it was set for. */
  private armedAt = Infinity;
  private armedFor: RunningCall | null = null;
  private readonly onTimer = () => this.fire();

  constructor(
    /** A call whose deadline passed (it is no longer listed). */
    private readonly expire: (call: RunningCall) => void,
  ) {}

  /** The number of calls running. */
  get size(): number {
    return this.count;
  }

  add(call: RunningCall): void {
    let lane = this.lanes.get(call.timeoutMs);
    if (lane === undefined) {
      lane = new Lane();
      this.lanes.set(call.timeoutMs, lane);
    }
    call.prev = lane.tail;
    call.next = null;
    if (lane.tail) lane.tail.next = call;
    else lane.head = call;
    lane.tail = call;
    call.listed = true;
    if (++this.count === 1) ref(this.timer);
    if (call.deadline < this.armedAt) this.arm(call, performance.now());
  }

  delete(call: RunningCall): void {
    if (!call.listed) return;
    call.listed = false;
    const lane = this.lanes.get(call.timeoutMs)!;
    if (call.prev) call.prev.next = call.next;
    else lane.head = call.next;
    if (call.next) call.next.prev = call.prev;
    else lane.tail = call.prev;
    call.prev = call.next = null;
    if (lane.head === null && this.lanes.size > KEPT_EMPTY_LISTS) this.lanes.delete(call.timeoutMs);
    // A timer left set for no call holds nothing alive; it finds nothing when it fires.
    if (--this.count === 0) unref(this.timer);
  }

  /** Every running call, oldest of each timeout first (for the client's close). */
  all(): RunningCall[] {
    const calls: RunningCall[] = [];
    for (const lane of this.lanes.values())
      for (let call = lane.head; call !== null; call = call.next) calls.push(call);
    return calls;
  }

  private arm(call: RunningCall, now: number): void {
    if (this.timer !== null) clearTimeout(this.timer);
    const delay = Math.max(0, call.deadline - now);
    this.armedAt = call.deadline;
    // The call the timer is for expires when it fires, whatever the clock says then (fake timers
    // may move the timers and not the clock); unless the delay was cut to what setTimeout takes.
    this.armedFor = delay <= MAX_DELAY_MS ? call : null;
    this.timer = setTimeout(this.onTimer, Math.min(delay, MAX_DELAY_MS));
    if (this.count === 0) unref(this.timer);
  }

  private fire(): void {
    this.timer = null;
    this.armedAt = Infinity;
    const armedFor = this.armedFor;
    this.armedFor = null;
    const now = performance.now();
    const expired: RunningCall[] = [];
    if (armedFor?.listed) {
      this.delete(armedFor);
      expired.push(armedFor);
    }
    let next: RunningCall | null = null;
    for (const [timeoutMs, lane] of this.lanes) {
      if (timeoutMs === 0) continue;
      while (lane.head !== null && lane.head.deadline <= now) {
        const call = lane.head;
        this.delete(call);
        expired.push(call);
      }
      if (lane.head !== null && (next === null || lane.head.deadline < next.deadline))
        next = lane.head;
    }
    if (next !== null) this.arm(next, now);
    for (const call of expired) this.expire(call);
  }
}

/** Timers keep a Node process alive only while calls run (elsewhere a timer is a number). */
function ref(timer: Timer | null): void {
  if (timer !== null && typeof timer === "object") timer.ref();
}

function unref(timer: Timer | null): void {
  if (timer !== null && typeof timer === "object") timer.unref();
}
