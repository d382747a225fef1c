/**
 * Transport limits shared by the server and the client (docs/decisions/0029): the server refuses a
 * batched tRPC request of more calls than MAX_BATCH_SIZE, and the client's batch link never sends
 * one (it splits into several requests instead).
 */
export const MAX_BATCH_SIZE = 10;
