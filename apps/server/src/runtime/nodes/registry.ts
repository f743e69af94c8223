// The node registry: every node this server process knows (the in-process one and the remote
// ones connected to it), mirrored into pipeline_nodes for the administrators' lists. New
// conversations go to an available node: remote nodes first (they exist to take load), the
// least loaded first, the in-process node last.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Vps, VpsStatus } from '@parla/shared/schemas/conversation';
import type { DB } from '../../db/schema';
import type { NodeHandle } from './node';
import { NODE_OFFLINE_AFTER_MS } from './protocol';
import type { RemoteNode } from './remote-node';

export class NodeRegistry {
  private readonly nodes = new Map<string, NodeHandle>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly now: () => Date,
    /** Called when a node is gone: its conversations end. */
    private readonly onLost: (nodeId: string) => Promise<void>,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.checkHeartbeats(), 1000);
    this.timer.unref();
  }

  get(id: string): NodeHandle | undefined {
    return this.nodes.get(id);
  }

  list(): NodeHandle[] {
    return [...this.nodes.values()];
  }

  statusOf(node: NodeHandle): VpsStatus {
    if ((node as RemoteNode).lost) return 'OFFLINE';
    return node.sessions.size >= node.capacity ? 'BUSY' : 'AVAILABLE';
  }

  async add(node: NodeHandle, meta: { address: string; privateIp: string; remoteIp: string; webSocket: string }): Promise<void> {
    this.nodes.set(node.id, node);
    const at = this.now();
    await this.db
      .insertInto('pipeline_nodes')
      .values({
        id: node.id,
        name: node.name,
        status: 'AVAILABLE',
        in_process: node.inProcess,
        address: meta.address,
        private_ip: meta.privateIp,
        remote_ip: meta.remoteIp,
        web_socket: meta.webSocket,
        capacity: node.capacity,
        created_at: at,
        last_connect_at: at,
        last_ping_at: at,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ status: 'AVAILABLE', name: node.name, capacity: node.capacity, address: meta.address, remote_ip: meta.remoteIp, last_connect_at: at, last_ping_at: at }),
      )
      .execute();
  }

  /** Picks a node with room, or null when every node is full or offline. */
  pick(): NodeHandle | null {
    const candidates = this.list().filter((n) => this.statusOf(n) === 'AVAILABLE');
    candidates.sort((a, b) => Number(a.inProcess) - Number(b.inProcess) || a.sessions.size / a.capacity - b.sessions.size / b.capacity);
    return candidates[0] ?? null;
  }

  /** Mirrors a node's live state (sessions, status, last use) into its row. */
  async sync(node: NodeHandle, extra: { sessionId?: string; userId?: string; used?: boolean } = {}): Promise<void> {
    const at = this.now();
    await this.db
      .updateTable('pipeline_nodes')
      .set({
        status: this.statusOf(node),
        sessions: node.sessions.size,
        session_id: extra.sessionId ?? [...node.sessions][0] ?? '',
        ...(extra.userId !== undefined ? { assigned_user_id: extra.userId } : {}),
        ...(extra.used ? { last_used_at: at } : {}),
      })
      .where('id', '=', node.id)
      .execute();
  }

  async ping(node: RemoteNode): Promise<void> {
    node.lastPing = this.now().getTime();
    await this.db.updateTable('pipeline_nodes').set({ last_ping_at: this.now(), sessions: node.sessions.size, status: this.statusOf(node) }).where('id', '=', node.id).execute();
  }

  /** A node went away (socket closed, silent, deleted): offline, and its conversations end. */
  async lost(node: NodeHandle, why: string): Promise<void> {
    if (!this.nodes.has(node.id)) return;
    this.nodes.delete(node.id);
    (node as RemoteNode).markLost?.();
    this.log.warn({ nodeId: node.id, why }, 'pipeline node lost');
    await this.db.updateTable('pipeline_nodes').set({ status: 'OFFLINE', sessions: 0, session_id: '' }).where('id', '=', node.id).execute();
    await this.onLost(node.id);
  }

  private async checkHeartbeats(): Promise<void> {
    const limit = this.now().getTime() - NODE_OFFLINE_AFTER_MS;
    for (const node of this.list()) {
      if (node.inProcess) continue;
      if ((node as RemoteNode).lastPing < limit) {
        node.disconnect('no heartbeat');
        await this.lost(node, 'no heartbeat').catch((err: unknown) => this.log.warn({ err: String(err) }, 'marking a node offline failed'));
      }
    }
  }

  async rows(): Promise<Vps[]> {
    const rows = await this.db.selectFrom('pipeline_nodes').selectAll().orderBy('created_at', 'asc').execute();
    return rows.map((r) => toVps(r, this.nodes.get(r.id)));
  }

  async row(id: string): Promise<Vps | null> {
    const r = await this.db.selectFrom('pipeline_nodes').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? toVps(r, this.nodes.get(r.id)) : null;
  }

  async forget(id: string): Promise<void> {
    await this.db.deleteFrom('pipeline_nodes').where('id', '=', id).execute();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const ids = this.list().map((n) => n.id);
    for (const n of this.list()) if (!n.inProcess) n.disconnect('server shutting down');
    this.nodes.clear();
    if (ids.length) await this.db.updateTable('pipeline_nodes').set({ status: 'OFFLINE', sessions: 0, session_id: '' }).where('id', 'in', ids).execute();
  }

  static newId(): string {
    return randomUUID();
  }
}

type NodeRow = {
  id: string;
  name: string;
  status: string;
  in_process: boolean;
  address: string;
  private_ip: string;
  remote_ip: string;
  web_socket: string;
  capacity: number;
  sessions: number;
  session_id: string;
  assigned_user_id: string;
  created_at: Date;
  last_connect_at: Date;
  last_ping_at: Date;
  last_used_at: Date | null;
};

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : '');

function toVps(r: NodeRow, live: NodeHandle | undefined): Vps {
  const status = (live ? r.status : 'OFFLINE') as VpsStatus;
  return {
    id: r.id,
    vpsId: r.id,
    name: r.name,
    vpsName: r.name,
    status,
    sessionId: live ? r.session_id : '',
    vpsAddress: r.address,
    dockerPrivateIp: r.private_ip,
    remoteIp: r.remote_ip,
    assignedUserId: r.assigned_user_id,
    webSocket: r.web_socket,
    created: iso(r.created_at),
    lastConnectTime: iso(r.last_connect_at),
    lastPingTime: iso(r.last_ping_at),
    lastUsedTime: iso(r.last_used_at),
    sessions: live ? live.sessions.size : 0,
    capacity: r.capacity,
    inProcess: r.in_process,
  };
}
