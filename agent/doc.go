// Package agent is the sampler behind `gpuplan agent`, the small process
// that runs on each team GPU server. Every few seconds it asks nvidia-smi
// how busy each GPU is and which processes hold it, finds the Unix user
// that owns each process in /proc, and sends the reading to the
// reservation store as a store.SampleBatch, from which the bot builds its
// usage digests ("booked but idle", busy hours per user).
//
// The parsers read nvidia-smi's CSV as real drivers print it — [N/A] and
// friends, MIG, failure messages instead of CSV — and never fail a whole
// reading for one bad line. The loop never stops on its own: a missing
// nvidia-smi still sends a heartbeat batch with Err set, and while the
// store is unreachable readings wait in a bounded queue and are sent
// oldest-first when it is back.
//
// The package depends on the standard library and the store's types only;
// it logs through log/slog.
package agent
