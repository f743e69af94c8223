// What one server process may ask of another (decision 630). Checked with zod on receipt: the
// table is ours, but a message written by an older or newer version must not crash a process.
import { z } from 'zod';

export const deliveryMessage = z.discriminatedUnion('kind', [
  /** A REST endpoint's callback: the conversation says this message (the sender checked the token). */
  z.object({ kind: z.literal('say'), conversationId: z.string(), message: z.string() }),
  /** An administrator suspended the account: its live conversations end now. */
  z.object({ kind: z.literal('end-owner'), ownerId: z.string() }),
  /** An administrator deleted a pipeline node connected to this process. */
  z.object({ kind: z.literal('node-disconnect'), nodeId: z.string() }),
]);

export type DeliveryMessage = z.infer<typeof deliveryMessage>;

export function parseDelivery(kind: string, payload: string): DeliveryMessage | null {
  try {
    const r = deliveryMessage.safeParse({ ...(JSON.parse(payload) as object), kind });
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

export function payloadOf(msg: DeliveryMessage): string {
  const { kind: _kind, ...rest } = msg;
  return JSON.stringify(rest);
}
