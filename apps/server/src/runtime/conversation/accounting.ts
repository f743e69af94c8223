// Accounting of one conversation: the seconds it uses against the daily allowances (per device,
// per IP, demo per IP) and the plan's monthly minutes, the conversation record (start and end)
// and each reply's timings. It decides which limit applies; the conversation acts on it.
import type { ResolvedAvatar } from '../avatar';
import type { UsageKey } from '../repositories/usage-counters.repository';
import type { ClientInfo } from './client-info';
import type { ConversationStore, LatencySink, UsageStore } from './ports';
import type { ReplyFinished } from './reply';

/** What a limit asks of the conversation. */
export type LimitAction = { end: 'idle' | 'demo' | 'usage' } | 'echo' | null;

/** What every conversation's accounting shares (one object per runtime). */
export interface AccountingServices {
  conversations: ConversationStore;
  usage: UsageStore;
  latency: LatencySink;
  now(): Date;
}

export class Accounting {
  private accountedAt: number;
  private startedAt: number;
  private lastUserAt: number;
  private recorded = false;
  private endWritten = false;

  constructor(
    private readonly conversationId: string,
    private readonly avatar: ResolvedAvatar,
    private readonly client: ClientInfo,
    private readonly ip: string,
    private readonly d: AccountingServices,
  ) {
    const now = d.now().getTime();
    this.accountedAt = this.startedAt = this.lastUserAt = now;
  }

  /** The usage counters this conversation adds to: per device ('session', the spec's "per
   *  session" limit), per IP, demo per IP — each per avatar. Made when needed (every 5 s), not
   *  kept: thousands of idle conversations stay small. */
  get keys(): UsageKey[] {
    const a = this.avatar.id;
    return [
      { scope: 'session', key: `${a}:${this.client.deviceId}` },
      { scope: 'ip', key: `${a}:${this.ip}` },
      { scope: 'demo', key: `${a}:${this.ip}` },
    ];
  }

  /** Milliseconds since the conversation started (the player's speech timestamps). */
  sinceStart(): number {
    return this.d.now().getTime() - this.startedAt;
  }

  userActive(): void {
    this.lastUserAt = this.d.now().getTime();
  }

  /** Limits that refuse or degrade the conversation before it starts. */
  async atStart(): Promise<{ refuse?: 'demo' | 'usage'; echo: boolean }> {
    const now = this.d.now();
    const l = this.avatar.limits;
    const [deviceUsed, ipUsed, demoUsed] = await Promise.all(this.keys.map((k) => this.d.usage.today(k, now)));
    if (l.demo !== -1 && demoUsed! >= l.demo) return { refuse: 'demo', echo: false };
    if (await this.d.usage.monthlyMinutesUsedUp(this.avatar.ownerId)) return { refuse: 'usage', echo: false };
    return { echo: this.dailyUsedUp(deviceUsed!, ipUsed!) };
  }

  private dailyUsedUp(deviceUsed: number, ipUsed: number): boolean {
    const l = this.avatar.limits;
    return (
      (l.dailyLimitPerSession !== -1 && deviceUsed >= l.dailyLimitPerSession) || (l.dailyLimitPerIP !== -1 && ipUsed >= l.dailyLimitPerIP)
    );
  }

  /** The conversation starts now: its record is written on the node it runs on. */
  async recordStart(nodeId: string): Promise<void> {
    const now = this.d.now();
    this.startedAt = this.accountedAt = this.lastUserAt = now.getTime();
    const { avatar, client } = this;
    await this.d.conversations.start({
      id: this.conversationId,
      owner_id: avatar.ownerId,
      avatar_id: avatar.id,
      avatar_name: avatar.name,
      avatar_type: avatar.type,
      user_id: client.userId,
      user_name: client.userName,
      device_id: client.deviceId,
      device_os: client.deviceOS,
      locale: client.locale,
      spoken_language: client.spokenLanguage,
      ip_address: this.ip,
      node_id: nodeId,
      started_at: now,
      last_seen_at: now,
      ...(avatar.verifiedUserId ? { verified_user_id: avatar.verifiedUserId } : {}),
    });
    this.recorded = true;
  }

  /** The seconds since last accounted, or null when there is nothing to account. The runtime's
   *  tick accounts every open conversation at once. */
  take(nowMs: number): { keys: UsageKey[]; seconds: number } | null {
    if (!this.recorded) return null;
    const seconds = Math.max(0, (nowMs - this.accountedAt) / 1000);
    this.accountedAt = nowMs;
    return { keys: this.keys, seconds };
  }

  /** Which running limit applies once the tick has written and read the usage. */
  atTick(
    nowMs: number,
    usedToday: (k: UsageKey) => number,
    monthlyMinutesUsedUp: boolean,
    state: { replying: boolean; echo: boolean },
  ): LimitAction {
    const l = this.avatar.limits;
    if (l.idleTimeout > 0 && nowMs - this.lastUserAt >= l.idleTimeout * 1000 && !state.replying) return { end: 'idle' };
    const [deviceUsed, ipUsed, demoUsed] = this.keys.map(usedToday);
    if (l.demo !== -1 && demoUsed! >= l.demo) return { end: 'demo' };
    if (monthlyMinutesUsedUp) return { end: 'usage' };
    if (!state.echo && this.dailyUsedUp(deviceUsed!, ipUsed!)) return 'echo';
    return null;
  }

  /** The runtime closed the record and added the last seconds for many conversations at once
   *  (a shutdown): recordEnd has nothing left to do. */
  endRecorded(): void {
    this.endWritten = true;
  }

  /** The end: the last seconds are added and the record is closed (once). */
  async recordEnd(reason: string, detail?: string): Promise<void> {
    if (!this.recorded || this.endWritten) return;
    const now = this.d.now();
    await this.d.usage.add(this.keys, Math.max(0, (now.getTime() - this.accountedAt) / 1000), now);
    this.accountedAt = now.getTime();
    await this.d.conversations.end(this.conversationId, now, reason, detail);
  }

  replyFinished(r: ReplyFinished): void {
    this.d.latency.add({
      conversationId: this.conversationId,
      ownerId: this.avatar.ownerId,
      avatarId: this.avatar.id,
      at: this.d.now(),
      ...r,
    });
  }
}
