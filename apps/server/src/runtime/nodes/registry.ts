// The node registry: every node this server process knows (the in-process one and the remote
// ones connected to it), mirrored into pipeline_nodes for the administrators' lists. New
// conversations go to an available node: remote nodes first (they exist to take load), the
// least loaded first, the in-process node last.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Vps, VpsStatus } from '@parla/shared/schemas/conversation';
import { NODE_OFFLINE_AFTER_MS } from '@parla/shared/schemas/node';
import type { DB } from '../../db/schema';
import {
  deleteNode,
  findNode,
  listNodes,
  markNodesOffline,
  updateNodeState,
  upsertNode,
  type NodeMeta,
  type NodeRow,
} from '../repositories/pipeline-nodes.repository';
import type { NodeHandle } from './node';
import { RemoteNode } from './remote-node';

export class NodeRegistry {
  private readonly nodes = new Map<string, NodeHandle>();
  private timer: NodeJS.Timeout | null = null;
  private quieted = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly now: () => Date,
    /** Called when a node is gone: its conversations end. */
    private readonly onLost: (nodeId: string) => Promise<void>,
    private readonly log: { warn(obj: object, msg: string): void },
    /** The server process the nodes connect to (decision 630). */
    private readonly processId: string | null = null,
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
    if (node instanceof RemoteNode && node.lost) return 'OFFLINE';
    return node.conversations.size >= node.capacity ? 'BUSY' : 'AVAILABLE';
  }

  async add(node: NodeHandle, meta: NodeMeta): Promise<void> {
    this.nodes.set(node.id, node);
    await upsertNode(this.db, node, meta, this.now(), this.processId);
  }

  /** Picks a node with room, or null when every node is full or offline. */
  pick(): NodeHandle | null {
    const candidates = this.list().filter((n) => this.statusOf(n) === 'AVAILABLE');
    candidates.sort(
      (a, b) => Number(a.inProcess) - Number(b.inProcess) || a.conversations.size / a.capacity - b.conversations.size / b.capacity,
    );
    return candidates[0] ?? null;
  }

  /** Mirrors a node's live state (sessions, status, last use) into its row. */
  /** Shutdown: conversations end by the thousand, and stop() marks every node offline anyway. */
  quiet(): void {
    this.quieted = true;
  }

  async sync(node: NodeHandle, extra: { sessionId?: string; userId?: string; used?: boolean } = {}): Promise<void> {
    if (this.quieted) return;
    await updateNodeState(this.db, node.id, {
      status: this.statusOf(node),
      sessions: node.conversations.size,
      sessionId: extra.sessionId ?? [...node.conversations][0] ?? '',
      ...(extra.userId !== undefined ? { assignedUserId: extra.userId } : {}),
      ...(extra.used ? { lastUsedAt: this.now() } : {}),
    });
  }

  async ping(node: RemoteNode): Promise<void> {
    node.lastPing = this.now().getTime();
    await updateNodeState(this.db, node.id, { lastPingAt: this.now(), sessions: node.conversations.size, status: this.statusOf(node) });
  }

  /** A node went away (socket closed, silent, deleted): offline, and its conversations end. */
  async lost(node: NodeHandle, why: string): Promise<void> {
    if (!this.nodes.has(node.id)) return;
    this.nodes.delete(node.id);
    if (node instanceof RemoteNode) node.markLost();
    this.log.warn({ nodeId: node.id, why }, 'pipeline node lost');
    await markNodesOffline(this.db, [node.id]);
    await this.onLost(node.id);
  }

  private async checkHeartbeats(): Promise<void> {
    const limit = this.now().getTime() - NODE_OFFLINE_AFTER_MS;
    for (const node of this.list()) {
      if (node.inProcess) continue;
      if (node instanceof RemoteNode && node.lastPing < limit) {
        node.disconnect('no heartbeat');
        await this.lost(node, 'no heartbeat').catch((err: unknown) => this.log.warn({ err: String(err) }, 'marking a node offline failed'));
      }
    }
  }

  async rows(): Promise<Vps[]> {
    const rows = await listNodes(this.db);
    return rows.map((r) => toVps(r, this.holder(r)));
  }

  async row(id: string): Promise<Vps | null> {
    const r = await findNode(this.db, id);
    return r ? toVps(r, this.holder(r)) : null;
  }

  /** The node's live handle here; 'elsewhere' when another process holds it (its row is the
   *  truth: that process keeps it current, and a live process marks it OFFLINE when the holder
   *  dies, decision 630). */
  private holder(r: NodeRow): NodeHandle | 'elsewhere' | undefined {
    const here = this.nodes.get(r.id);
    if (here) return here;
    return r.process_id && r.process_id !== this.processId ? 'elsewhere' : undefined;
  }

  async forget(id: string): Promise<void> {
    await deleteNode(this.db, id);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const ids = this.list().map((n) => n.id);
    for (const n of this.list()) if (!n.inProcess) n.disconnect('server shutting down');
    this.nodes.clear();
    await markNodesOffline(this.db, ids);
  }

  static newId(): string {
    return randomUUID();
  }
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : '');

function toVps(r: NodeRow, live: NodeHandle | 'elsewhere' | undefined): Vps {
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
    sessions: live === 'elsewhere' ? r.sessions : live ? live.conversations.size : 0,
    capacity: r.capacity,
    inProcess: r.in_process,
  };
}
