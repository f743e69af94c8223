// Pipeline nodes as the administrators' lists see them (pipeline_nodes): the registry mirrors
// each node's live state here. Administrators' data: no owner scope.
import type { Kysely, Selectable } from 'kysely';
import type { VpsStatus } from '@parla/shared/schemas/conversation';
import type { DB } from '../../db/schema';

export type NodeRow = Selectable<DB['pipeline_nodes']>;

export interface NodeMeta {
  address: string;
  privateIp: string;
  remoteIp: string;
  webSocket: string;
}

/** A node (re)connected: inserted, or brought back AVAILABLE with its new details. */
export async function upsertNode(
  db: Kysely<DB>,
  node: { id: string; name: string; inProcess: boolean; capacity: number },
  meta: NodeMeta,
  at: Date,
  processId: string | null = null,
): Promise<void> {
  await db
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
      process_id: processId,
    })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        status: 'AVAILABLE',
        name: node.name,
        capacity: node.capacity,
        address: meta.address,
        remote_ip: meta.remoteIp,
        last_connect_at: at,
        last_ping_at: at,
        process_id: processId,
      }),
    )
    .execute();
}

export interface NodeState {
  status: VpsStatus;
  sessions: number;
  sessionId?: string;
  assignedUserId?: string;
  lastUsedAt?: Date;
  lastPingAt?: Date;
}

export async function updateNodeState(db: Kysely<DB>, id: string, s: NodeState): Promise<void> {
  await db
    .updateTable('pipeline_nodes')
    .set({
      status: s.status,
      sessions: s.sessions,
      ...(s.sessionId !== undefined ? { session_id: s.sessionId } : {}),
      ...(s.assignedUserId !== undefined ? { assigned_user_id: s.assignedUserId } : {}),
      ...(s.lastUsedAt ? { last_used_at: s.lastUsedAt } : {}),
      ...(s.lastPingAt ? { last_ping_at: s.lastPingAt } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function markNodesOffline(db: Kysely<DB>, ids: string[]): Promise<void> {
  if (ids.length)
    await db.updateTable('pipeline_nodes').set({ status: 'OFFLINE', sessions: 0, session_id: '' }).where('id', 'in', ids).execute();
}

export function listNodes(db: Kysely<DB>): Promise<NodeRow[]> {
  return db.selectFrom('pipeline_nodes').selectAll().orderBy('created_at', 'asc').execute();
}

export function findNode(db: Kysely<DB>, id: string): Promise<NodeRow | undefined> {
  return db.selectFrom('pipeline_nodes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteNode(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('pipeline_nodes').where('id', '=', id).execute();
}
