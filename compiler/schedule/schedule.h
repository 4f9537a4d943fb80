// Pass `schedule`: plans the memory of every function's host program.
//
// After form-dispatch-regions each function body is host-level code: its
// arguments, dense constants (rodata), kiln.dispatch.region ops, reshapes
// (aliases), check.* ops and func.return. This pass assigns each tensor
// value produced by a dispatch region a storage:
//   - "result": the value (or an alias of it) is returned, or its shape is
//     dynamic: its own buffer, allocated per invocation
//     (hal.buffer.allocate; a dynamic one sized by its run-time dims);
//   - "transient": an offset in ONE transient allocation per invocation,
//     planned by liveness (first-fit over free intervals, 64-byte aligned)
//     so that values whose lifetimes do not overlap share bytes.
// It records, on each region op, `result_storage` (array<i64>: the
// transient byte offset per result, -1 for a result buffer) and, on the
// function, `kiln.transient_size` (i64 bytes). vm-emission reads them and
// inserts the execution barriers (hazard tracking) when it records the
// dispatches. Reuse is safe because a dispatch that writes reused bytes is
// always separated by a barrier from the dispatches that read them.
#ifndef KILN_COMPILER_SCHEDULE_SCHEDULE_H_
#define KILN_COMPILER_SCHEDULE_SCHEDULE_H_

#include "compiler/ir/pass.h"

#ifdef __cplusplus
extern "C" {
#endif

// The pass (name "schedule").
extern const kiln_ir_pass_t kiln_schedule_pass;

kiln_status_t kiln_schedule(kiln_ir_context_t* context, kiln_ir_op_t* module);

// True for host ops that alias their first operand's buffer (reshapes,
// tensor.cast, util.optimization_barrier).
bool kiln_schedule_is_alias_op(const kiln_ir_op_t* op);

// True for shape arithmetic at host level: index add/sub/mul, divisions,
// remainders, min/max, and/or, compare (an i1), select, and casts between
// index and integer arguments, whose operands are all host shape values
// (index constants and arguments, tensor.dim, other shape ops). It stays at
// host level (lower-host-ops leaves it): vm-emission computes it in
// registers, and dispatches read its results as push constants (run-time
// sizes, shape checks before the work).
bool kiln_schedule_is_shape_op(kiln_ir_op_t* op);

// Alignment of transient offsets and buffer sizes.
#define KILN_SCHEDULE_ALIGNMENT 64

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_SCHEDULE_SCHEDULE_H_
