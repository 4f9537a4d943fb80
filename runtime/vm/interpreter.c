// The bytecode interpreter: a register machine over a per-invocation stack of
// frames. The verifier has checked every operand, so the hot loop decodes
// without bounds checks. Run-time errors (division by zero, out-of-range
// buffer/list accesses, type mismatches of refs, fail ops, native errors)
// unwind every frame and come back annotated with a backtrace.
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <tgmath.h>

#include "runtime/base/tracing.h"
#include "runtime/vm/bytecode_module_impl.h"
#include "runtime/vm/dot.h"
#include "runtime/vm/list.h"
#include "runtime/vm/numerics.h"

#define KILN_VM_DEFAULT_MAX_DEPTH 1024
#define KILN_VM_MAX_ARENA_BYTES ((size_t)256 << 20)
#define KILN_VM_DEADLINE_CHECK_INTERVAL 256

typedef struct kiln_vm_frame_t {
  kiln_vm_bc_state_t* state;
  const kiln_vm_bc_function_t* function;
  uint32_t pc;  // resume offset; in callers the offset of the call
  size_t base;  // register storage offset in the arena
} kiln_vm_frame_t;

typedef struct kiln_vm_stack_t {
  kiln_allocator_t allocator;
  kiln_vm_frame_t* frames;
  uint32_t depth;
  uint32_t max_depth;
  uint8_t* arena;
  size_t arena_capacity;
  size_t arena_used;
  int64_t deadline_ns;
  uint32_t deadline_counter;
  kiln_vm_wait_request_t wait;  // pending wait, if wait.wait != NULL
  kiln_vm_value_t* results;     // of the outermost call
  size_t result_count;
  FILE* trace_execution;  // --trace_execution stream, or NULL
} kiln_vm_stack_t;

//===----------------------------------------------------------------------===//
// Frames
//===----------------------------------------------------------------------===//

static void kiln_vm_frame_release_refs(kiln_vm_stack_t* stack,
                                       kiln_vm_frame_t* frame) {
  const kiln_vm_bc_function_t* f = frame->function;
  kiln_ref_object_t** refs =
      (kiln_ref_object_t**)(stack->arena + frame->base +
                            f->bank_offset[KILN_VM_BANK_REF]);
  for (uint32_t i = 0; i < f->regs[KILN_VM_BANK_REF]; ++i) {
    kiln_ref_release(refs[i]);
  }
}

static void kiln_vm_stack_pop(kiln_vm_stack_t* stack) {
  kiln_vm_frame_t* frame = &stack->frames[stack->depth - 1];
  kiln_vm_frame_release_refs(stack, frame);
  stack->arena_used = frame->base;
  --stack->depth;
}

static void kiln_vm_stack_unwind(kiln_vm_stack_t* stack) {
  while (stack->depth) kiln_vm_stack_pop(stack);
}

static kiln_status_t kiln_vm_stack_push(kiln_vm_stack_t* stack,
                                        kiln_vm_bc_state_t* state,
                                        const kiln_vm_bc_function_t* f) {
  if (stack->depth >= stack->max_depth) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "call stack overflow: depth %u exceeded calling "
                            "'%.*s'",
                            stack->max_depth, KILN_SV_ARG(f->name));
  }
  size_t need = stack->arena_used + f->frame_size;
  if (need > stack->arena_capacity || !stack->arena) {
    if (need > KILN_VM_MAX_ARENA_BYTES) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                              "register stack exhausted (%zu bytes) calling "
                              "'%.*s'",
                              need, KILN_SV_ARG(f->name));
    }
    size_t capacity = stack->arena_capacity ? stack->arena_capacity : 4096;
    while (capacity < need) capacity *= 2;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(stack->allocator, capacity,
                                                (void**)&stack->arena));
    stack->arena_capacity = capacity;
  }
  kiln_vm_frame_t* frame = &stack->frames[stack->depth++];
  frame->state = state;
  frame->function = f;
  frame->pc = 0;
  frame->base = stack->arena_used;
  memset(stack->arena + frame->base, 0, f->frame_size);
  stack->arena_used = need;
  return kiln_ok_status();
}

// Register bank pointers of a frame.
typedef struct kiln_vm_regs_t {
  int32_t* i32;
  int64_t* i64;
  float* f32;
  double* f64;
  kiln_ref_object_t** ref;
} kiln_vm_regs_t;

static inline kiln_vm_regs_t kiln_vm_frame_regs(kiln_vm_stack_t* stack,
                                                const kiln_vm_frame_t* frame) {
  uint8_t* base = stack->arena + frame->base;
  const uint32_t* off = frame->function->bank_offset;
  kiln_vm_regs_t r = {
      (int32_t*)(base + off[KILN_VM_BANK_I32]),
      (int64_t*)(base + off[KILN_VM_BANK_I64]),
      (float*)(base + off[KILN_VM_BANK_F32]),
      (double*)(base + off[KILN_VM_BANK_F64]),
      (kiln_ref_object_t**)(base + off[KILN_VM_BANK_REF]),
  };
  return r;
}

static inline kiln_vm_value_t kiln_vm_reg_get(const kiln_vm_regs_t* r, int bank,
                                              uint16_t index) {
  switch (bank) {
    case KILN_VM_BANK_I32:
      return kiln_vm_value_make_i32(r->i32[index]);
    case KILN_VM_BANK_I64:
      return kiln_vm_value_make_i64(r->i64[index]);
    case KILN_VM_BANK_F32:
      return kiln_vm_value_make_f32(r->f32[index]);
    case KILN_VM_BANK_F64:
      return kiln_vm_value_make_f64(r->f64[index]);
    default:
      return kiln_vm_value_make_ref(r->ref[index]);
  }
}

// Stores |value| (type already matches |bank|) taking over its reference.
static inline void kiln_vm_reg_set_move(const kiln_vm_regs_t* r, int bank,
                                        uint16_t index,
                                        kiln_vm_value_t* value) {
  switch (bank) {
    case KILN_VM_BANK_I32:
      r->i32[index] = value->i32;
      break;
    case KILN_VM_BANK_I64:
      r->i64[index] = value->i64;
      break;
    case KILN_VM_BANK_F32:
      r->f32[index] = value->f32;
      break;
    case KILN_VM_BANK_F64:
      r->f64[index] = value->f64;
      break;
    default: {
      kiln_ref_object_t* old = r->ref[index];
      r->ref[index] = value->ref;
      kiln_ref_release(old);
      break;
    }
  }
  *value = kiln_vm_value_make_none();
}

// Copies registers listed at |list| in |from| into the argument registers of
// a fresh callee frame |to| (first registers of each bank, in order).
static void kiln_vm_copy_args(const kiln_vm_regs_t* from, const uint8_t* list,
                              const kiln_vm_regs_t* to) {
  uint16_t next[KILN_VM_BANK_COUNT] = {0};
  for (uint32_t i = 0; i < list[0]; ++i) {
    int bank = list[1 + 3 * i];
    uint16_t src = kiln_vm_rd16(list + 2 + 3 * i);
    uint16_t dst = next[bank]++;
    switch (bank) {
      case KILN_VM_BANK_I32:
        to->i32[dst] = from->i32[src];
        break;
      case KILN_VM_BANK_I64:
        to->i64[dst] = from->i64[src];
        break;
      case KILN_VM_BANK_F32:
        to->f32[dst] = from->f32[src];
        break;
      case KILN_VM_BANK_F64:
        to->f64[dst] = from->f64[src];
        break;
      default:
        to->ref[dst] = from->ref[src];
        kiln_ref_retain(to->ref[dst]);
        break;
    }
  }
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_vm_annotate_backtrace(kiln_vm_stack_t* stack,
                                                kiln_status_t status) {
  for (uint32_t i = stack->depth; i > 0; --i) {
    const kiln_vm_frame_t* frame = &stack->frames[i - 1];
    if (stack->depth - i >= 8) {
      status = kiln_status_annotate_f(status, "... %u more frames", i);
      break;
    }
    status = kiln_status_annotate_f(
        status, "at %.*s.%.*s+0x%x", KILN_SV_ARG(frame->state->module->name),
        KILN_SV_ARG(frame->function->name), frame->pc);
  }
  return status;
}

static kiln_status_t kiln_vm_fail_status(int32_t code, kiln_string_view_t msg) {
  kiln_status_code_t status_code =
      code >= 1 && code <= 16 ? (kiln_status_code_t)code : KILN_STATUS_UNKNOWN;
  return kiln_make_status(status_code, "fail (code %d): %.*s", code,
                          KILN_SV_ARG(msg));
}

//===----------------------------------------------------------------------===//
// The loop
//===----------------------------------------------------------------------===//

// Native import call from the frame at the top of the stack.
static kiln_status_t kiln_vm_call_native(kiln_vm_stack_t* stack,
                                         const kiln_vm_bc_import_t* import,
                                         kiln_vm_bc_import_binding_t* binding,
                                         const kiln_vm_regs_t* regs,
                                         const uint8_t* args_list,
                                         const uint8_t* results_list) {
  kiln_vm_value_t args[256];
  kiln_vm_value_t results[256];
  uint32_t arg_count = args_list[0], result_count = results_list[0];
  for (uint32_t i = 0; i < arg_count; ++i) {
    args[i] = kiln_vm_reg_get(regs, args_list[1 + 3 * i],
                              kiln_vm_rd16(args_list + 2 + 3 * i));
  }
  for (uint32_t i = 0; i < result_count; ++i) {
    results[i] = kiln_vm_value_make_none();
  }
  kiln_vm_native_call_t call;
  memset(&call, 0, sizeof(call));
  call.function = binding->target;
  call.args = args;
  call.arg_count = arg_count;
  call.results = results;
  call.result_count = result_count;
  call.deadline_ns = stack->deadline_ns;
  call.max_call_depth = stack->max_depth;
  call.trace_execution = stack->trace_execution;
  kiln_vm_module_t* target = binding->target.module;
  // Named after the import (e.g. hal.command_buffer.dispatch).
  KILN_TRACE_ZONE_BEGIN_NAMED_DYNAMIC(z0, import->name.data, import->name.size);
  kiln_status_t status =
      target->vtable->call(target, binding->target_state, &call);
  KILN_TRACE_ZONE_END(z0);
  if (!status) {
    status = kiln_vm_check_results(import->name, &import->sig, results,
                                   result_count);
  }
  if (status) {
    kiln_vm_values_release(results, result_count);
    return kiln_status_annotate_f(status, "calling import '%.*s'",
                                  KILN_SV_ARG(import->name));
  }
  for (uint32_t i = 0; i < result_count; ++i) {
    kiln_vm_reg_set_move(regs, results_list[1 + 3 * i],
                         kiln_vm_rd16(results_list + 2 + 3 * i), &results[i]);
  }
  stack->wait = call.wait;
  return kiln_ok_status();
}

static inline bool kiln_vm_deadline_passed(kiln_vm_stack_t* stack) {
  if (!stack->deadline_ns) return false;
  if (++stack->deadline_counter < KILN_VM_DEADLINE_CHECK_INTERVAL) {
    return false;
  }
  stack->deadline_counter = 0;
  return kiln_vm_now_ns() >= stack->deadline_ns;
}

// Helpers for ops with checked preconditions.
static kiln_status_t kiln_vm_buffer_operand(kiln_ref_object_t* ref,
                                            kiln_vm_buffer_t** out) {
  *out = kiln_vm_buffer_cast(ref);
  if (*out) return kiln_ok_status();
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "expected a vm.buffer, got %s",
                          ref ? ref->type->name : "null");
}
static kiln_status_t kiln_vm_buffer_element(kiln_ref_object_t* ref,
                                            int64_t index, uint32_t size,
                                            bool for_write,
                                            const char* mnemonic,
                                            uint8_t** out_ptr) {
  kiln_vm_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_buffer_operand(ref, &buffer));
  if (index < 0 || (uint64_t)index >= buffer->length / size) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "%s: element index %" PRId64
                            " out of range of a %zu byte buffer",
                            mnemonic, index, buffer->length);
  }
  if (for_write && !buffer->is_mutable) {
    return kiln_make_status(KILN_STATUS_PERMISSION_DENIED,
                            "%s: write to a read-only buffer", mnemonic);
  }
  *out_ptr = buffer->data + (uint64_t)index * size;
  return kiln_ok_status();
}
// The first of the |count| elements of |size| bytes at element indices
// index + i * stride (i < count) of the buffer |ref|, all checked to lie
// inside it (they do when the first and the last do); NULL when |count| is
// 0.
static kiln_status_t kiln_vm_buffer_strided(kiln_ref_object_t* ref,
                                            int64_t index, int64_t stride,
                                            int64_t count, uint32_t size,
                                            const char* mnemonic,
                                            const uint8_t** out_ptr) {
  *out_ptr = NULL;
  kiln_vm_buffer_t* buffer = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_buffer_operand(ref, &buffer));
  if (count < 0) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "%s: negative count %" PRId64, mnemonic, count);
  }
  if (count == 0) return kiln_ok_status();
  int64_t span = 0, last = 0;
  uint64_t n = buffer->length / size;
  if (__builtin_mul_overflow(count - 1, stride, &span) ||
      __builtin_add_overflow(index, span, &last) || index < 0 || last < 0 ||
      (uint64_t)index >= n || (uint64_t)last >= n) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "%s: elements %" PRId64 " + i * %" PRId64
                            " (i < %" PRId64
                            ") out of range of a %zu byte "
                            "buffer",
                            mnemonic, index, stride, count, buffer->length);
  }
  *out_ptr = buffer->data + (uint64_t)index * size;
  return kiln_ok_status();
}

// dot.f32 / dot.f16: |acc| plus the products of the |count| elements at
// |a| and |b| (strides in elements, ranges checked by the caller), in
// order. f16 elements: each product and sum is rounded to f16 (through
// f32, as mul.f32 / add.f32 then cast.f32.f16).
static inline float kiln_vm_dot(bool f16, float acc, const uint8_t* a,
                                int64_t sa, const uint8_t* b, int64_t sb,
                                int64_t count) {
  size_t size = f16 ? 2 : 4;
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t* pa = a + i * sa * (int64_t)size;
    const uint8_t* pb = b + i * sb * (int64_t)size;
    float x, y;
    if (f16) {
      uint16_t hx, hy;
      memcpy(&hx, pa, sizeof(hx));
      memcpy(&hy, pb, sizeof(hy));
      x = kiln_vm_f16_to_f32(hx);
      y = kiln_vm_f16_to_f32(hy);
    } else {
      memcpy(&x, pa, sizeof(x));
      memcpy(&y, pb, sizeof(y));
    }
    // Separate statements: the product is rounded before the sum (no fused
    // multiply-add), as the loop of loads, mul and add it replaces.
    float p = x * y;
    if (f16) p = kiln_vm_round_to_f16(p);
    acc = acc + p;
    if (f16) acc = kiln_vm_round_to_f16(acc);
  }
  return acc;
}

static kiln_status_t kiln_vm_list_operand(kiln_ref_object_t* ref,
                                          kiln_vm_list_t** out) {
  *out = kiln_vm_list_cast(ref);
  if (*out) return kiln_ok_status();
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "expected a vm.list, got %s",
                          ref ? ref->type->name : "null");
}
static kiln_status_t kiln_vm_list_element(kiln_ref_object_t* ref, int32_t index,
                                          kiln_vm_value_type_t type,
                                          kiln_vm_value_t* out) {
  kiln_vm_list_t* list = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_list_operand(ref, &list));
  if (index < 0) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "list index %d out of range", index);
  }
  KILN_RETURN_IF_ERROR(kiln_vm_list_get_value(list, (size_t)index, out));
  if (out->type != type) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "list element %d is %s, expected %s", index,
                            kiln_vm_value_type_name(out->type),
                            kiln_vm_value_type_name(type));
  }
  return kiln_ok_status();
}
static kiln_status_t kiln_vm_list_store(kiln_ref_object_t* ref, int32_t index,
                                        kiln_vm_value_t value) {
  kiln_vm_list_t* list = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_list_operand(ref, &list));
  if (index < 0) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "list index %d out of range", index);
  }
  return kiln_vm_list_set_value(list, (size_t)index, &value);
}

// Operand accessors relative to the current instruction |ip|.
#define OP16(byte_offset) kiln_vm_rd16(ip + (byte_offset))
#define OP32(byte_offset) kiln_vm_rd32(ip + (byte_offset))
#define R(n) kiln_vm_rd16(ip + 2 + 2 * (n))
#define RI32 regs.i32
#define RI64 regs.i64
#define RF32 regs.f32
#define RF64 regs.f64
#define REF regs.ref
#define CHECK(expr)         \
  do {                      \
    status = (expr);        \
    if (status) goto error; \
  } while (0)

// Integer op families over one bank. U is the unsigned type, S the signed
// one, BITS the width. Arithmetic wraps (done on unsigned types).
#define INT_OPS(SUF, REG, U, S, BITS, CLZ, POPCNT)                \
  case KILN_VM_OP_ADD_##SUF:                                      \
    REG[R(0)] = (S)((U)REG[R(1)] + (U)REG[R(2)]);                 \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_SUB_##SUF:                                      \
    REG[R(0)] = (S)((U)REG[R(1)] - (U)REG[R(2)]);                 \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_MUL_##SUF:                                      \
    REG[R(0)] = (S)((U)REG[R(1)] * (U)REG[R(2)]);                 \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_DIV_S_##SUF: {                                  \
    S a = REG[R(1)], b = REG[R(2)];                               \
    if (b == 0) goto division_by_zero;                            \
    REG[R(0)] = (b == -1) ? (S)(0 - (U)a) : a / b;                \
    ip += 8;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_DIV_U_##SUF: {                                  \
    U a = (U)REG[R(1)], b = (U)REG[R(2)];                         \
    if (b == 0) goto division_by_zero;                            \
    REG[R(0)] = (S)(a / b);                                       \
    ip += 8;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_REM_S_##SUF: {                                  \
    S a = REG[R(1)], b = REG[R(2)];                               \
    if (b == 0) goto division_by_zero;                            \
    REG[R(0)] = (b == -1) ? 0 : a % b;                            \
    ip += 8;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_REM_U_##SUF: {                                  \
    U a = (U)REG[R(1)], b = (U)REG[R(2)];                         \
    if (b == 0) goto division_by_zero;                            \
    REG[R(0)] = (S)(a % b);                                       \
    ip += 8;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_AND_##SUF:                                      \
    REG[R(0)] = REG[R(1)] & REG[R(2)];                            \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_OR_##SUF:                                       \
    REG[R(0)] = REG[R(1)] | REG[R(2)];                            \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_XOR_##SUF:                                      \
    REG[R(0)] = REG[R(1)] ^ REG[R(2)];                            \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_SHL_##SUF:                                      \
    REG[R(0)] = (S)((U)REG[R(1)] << ((U)REG[R(2)] & (BITS - 1))); \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_SHR_S_##SUF:                                    \
    REG[R(0)] = REG[R(1)] >> ((U)REG[R(2)] & (BITS - 1));         \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_SHR_U_##SUF:                                    \
    REG[R(0)] = (S)((U)REG[R(1)] >> ((U)REG[R(2)] & (BITS - 1))); \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_MIN_S_##SUF: {                                  \
    S a = REG[R(1)], b = REG[R(2)];                               \
    REG[R(0)] = a < b ? a : b;                                    \
    ip += 8;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_MAX_S_##SUF: {                                  \
    S a = REG[R(1)], b = REG[R(2)];                               \
    REG[R(0)] = a > b ? a : b;                                    \
    ip += 8;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_MIN_U_##SUF: {                                  \
    U a = (U)REG[R(1)], b = (U)REG[R(2)];                         \
    REG[R(0)] = (S)(a < b ? a : b);                               \
    ip += 8;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_MAX_U_##SUF: {                                  \
    U a = (U)REG[R(1)], b = (U)REG[R(2)];                         \
    REG[R(0)] = (S)(a > b ? a : b);                               \
    ip += 8;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_NOT_##SUF:                                      \
    REG[R(0)] = ~REG[R(1)];                                       \
    ip += 6;                                                      \
    break;                                                        \
  case KILN_VM_OP_NEG_##SUF:                                      \
    REG[R(0)] = (S)(0 - (U)REG[R(1)]);                            \
    ip += 6;                                                      \
    break;                                                        \
  case KILN_VM_OP_ABS_##SUF: {                                    \
    S a = REG[R(1)];                                              \
    REG[R(0)] = a < 0 ? (S)(0 - (U)a) : a;                        \
    ip += 6;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_CTLZ_##SUF: {                                   \
    U a = (U)REG[R(1)];                                           \
    REG[R(0)] = a ? (S)CLZ(a) : BITS;                             \
    ip += 6;                                                      \
    break;                                                        \
  }                                                               \
  case KILN_VM_OP_POPCNT_##SUF:                                   \
    REG[R(0)] = (S)POPCNT((U)REG[R(1)]);                          \
    ip += 6;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_EQ_##SUF:                                   \
    RI32[R(0)] = REG[R(1)] == REG[R(2)];                          \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_NE_##SUF:                                   \
    RI32[R(0)] = REG[R(1)] != REG[R(2)];                          \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_LT_S_##SUF:                                 \
    RI32[R(0)] = REG[R(1)] < REG[R(2)];                           \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_LE_S_##SUF:                                 \
    RI32[R(0)] = REG[R(1)] <= REG[R(2)];                          \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_GT_S_##SUF:                                 \
    RI32[R(0)] = REG[R(1)] > REG[R(2)];                           \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_GE_S_##SUF:                                 \
    RI32[R(0)] = REG[R(1)] >= REG[R(2)];                          \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_LT_U_##SUF:                                 \
    RI32[R(0)] = (U)REG[R(1)] < (U)REG[R(2)];                     \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_LE_U_##SUF:                                 \
    RI32[R(0)] = (U)REG[R(1)] <= (U)REG[R(2)];                    \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_GT_U_##SUF:                                 \
    RI32[R(0)] = (U)REG[R(1)] > (U)REG[R(2)];                     \
    ip += 8;                                                      \
    break;                                                        \
  case KILN_VM_OP_CMP_GE_U_##SUF:                                 \
    RI32[R(0)] = (U)REG[R(1)] >= (U)REG[R(2)];                    \
    ip += 8;                                                      \
    break;

#define FBIN(NAME, SUF, REG, EXPR)                   \
  case KILN_VM_OP_##NAME##_##SUF: {                  \
    __typeof__(REG[0]) a = REG[R(1)], b = REG[R(2)]; \
    REG[R(0)] = (EXPR);                              \
    ip += 8;                                         \
    break;                                           \
  }
#define FUN(NAME, SUF, REG, EXPR)     \
  case KILN_VM_OP_##NAME##_##SUF: {   \
    __typeof__(REG[0]) a = REG[R(1)]; \
    REG[R(0)] = (EXPR);               \
    ip += 6;                          \
    break;                            \
  }
// The float opcodes of one bank, expanded from numerics.h's tables.
#define FBIN_ROW_(NAME, EXPR, SUF, REG) FBIN(NAME, SUF, REG, EXPR)
#define FUN_ROW_(NAME, EXPR, SUF, REG) FUN(NAME, SUF, REG, EXPR)
#define FTERN_ROW_(NAME, EXPR, SUF, REG)                            \
  case KILN_VM_OP_##NAME##_##SUF: {                                 \
    __typeof__(REG[0]) a = REG[R(1)], b = REG[R(2)], c = REG[R(3)]; \
    REG[R(0)] = (EXPR);                                             \
    ip += 10;                                                       \
    break;                                                          \
  }
#define FPRED_ROW_(NAME, EXPR, SUF, REG) \
  case KILN_VM_OP_##NAME##_##SUF: {      \
    __typeof__(REG[0]) a = REG[R(1)];    \
    RI32[R(0)] = (EXPR) ? 1 : 0;         \
    ip += 6;                             \
    break;                               \
  }
#define FCMP_ROW_(NAME, EXPR, SUF, REG)              \
  case KILN_VM_OP_##NAME##_##SUF: {                  \
    __typeof__(REG[0]) a = REG[R(1)], b = REG[R(2)]; \
    RI32[R(0)] = (EXPR) ? 1 : 0;                     \
    ip += 8;                                         \
    break;                                           \
  }
#define FLOAT_OPS(SUF, REG)                               \
  KILN_VM_FLOAT_BINARY_OPS(FBIN_ROW_, SUF, REG)           \
  KILN_VM_FLOAT_UNARY_OPS(FUN_ROW_, SUF, REG)             \
  KILN_VM_FLOAT_TERNARY_OPS(FTERN_ROW_, SUF, REG)         \
  KILN_VM_FLOAT_PREDICATE_UNARY_OPS(FPRED_ROW_, SUF, REG) \
  KILN_VM_FLOAT_COMPARE_OPS(FCMP_ROW_, SUF, REG)

#define CONV(NAME, DST, SRC, EXPR)    \
  case KILN_VM_OP_##NAME: {           \
    __typeof__(SRC[0]) a = SRC[R(1)]; \
    DST[R(0)] = (EXPR);               \
    ip += 6;                          \
    break;                            \
  }

#define BUF_LOAD(NAME, DST, CTYPE, EXPR)                                      \
  case KILN_VM_OP_BUFFER_LOAD_##NAME: {                                       \
    uint8_t* p = NULL;                                                        \
    CHECK(kiln_vm_buffer_element(REF[R(1)], RI64[R(2)], sizeof(CTYPE), false, \
                                 "buffer.load", &p));                         \
    CTYPE a;                                                                  \
    memcpy(&a, p, sizeof(a));                                                 \
    DST[R(0)] = (EXPR);                                                       \
    ip += 8;                                                                  \
    break;                                                                    \
  }
#define BUF_STORE(NAME, SRC, CTYPE)                                          \
  case KILN_VM_OP_BUFFER_STORE_##NAME: {                                     \
    uint8_t* p = NULL;                                                       \
    CHECK(kiln_vm_buffer_element(REF[R(0)], RI64[R(1)], sizeof(CTYPE), true, \
                                 "buffer.store", &p));                       \
    CTYPE a = (CTYPE)SRC[R(2)];                                              \
    memcpy(p, &a, sizeof(a));                                                \
    ip += 8;                                                                 \
    break;                                                                   \
  }
#define LIST_GET(NAME, DST, TYPE, FIELD)                          \
  case KILN_VM_OP_LIST_GET_##NAME: {                              \
    kiln_vm_value_t v;                                            \
    CHECK(kiln_vm_list_element(REF[R(1)], RI32[R(2)], TYPE, &v)); \
    DST[R(0)] = v.FIELD;                                          \
    ip += 8;                                                      \
    break;                                                        \
  }
#define LIST_SET(NAME, SRC, MAKE)                                      \
  case KILN_VM_OP_LIST_SET_##NAME:                                     \
    CHECK(kiln_vm_list_store(REF[R(0)], RI32[R(1)], MAKE(SRC[R(2)]))); \
    ip += 8;                                                           \
    break;

// Prints one register's value for --trace_execution.
static void kiln_vm_trace_register(FILE* s, const kiln_vm_regs_t* regs,
                                   int bank, uint16_t index) {
  fprintf(s, " %%%c%u=", kiln_vm_bank_prefix(bank), index);
  switch (bank) {
    case KILN_VM_BANK_I32:
      fprintf(s, "%d", regs->i32[index]);
      break;
    case KILN_VM_BANK_I64:
      fprintf(s, "%" PRId64, regs->i64[index]);
      break;
    case KILN_VM_BANK_F32:
      fprintf(s, "%g", regs->f32[index]);
      break;
    case KILN_VM_BANK_F64:
      fprintf(s, "%g", regs->f64[index]);
      break;
    default: {
      const kiln_ref_object_t* ref = regs->ref[index];
      fputs(ref ? ref->type->name : "null", s);
      break;
    }
  }
}

// --trace_execution: "[module.function+pc] instruction ; operand values".
// Register operands are shown as they are before the instruction runs
// (results therefore show their previous value).
static void kiln_vm_trace_instruction(FILE* s, const kiln_vm_frame_t* frame,
                                      const uint8_t* ip,
                                      const kiln_vm_regs_t* regs) {
  const kiln_vm_bytecode_module_t* m = frame->state->module;
  const kiln_vm_bc_function_t* fn = frame->function;
  fprintf(s, "[%.*s.%.*s+0x%04x] ", KILN_SV_ARG(m->name), KILN_SV_ARG(fn->name),
          (unsigned)(ip - fn->code));
  kiln_vm_bytecode_print_instruction(s, m, ip);
  const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(kiln_vm_rd16(ip));
  bool first = true;
  uint32_t p = 2;
  for (const char* c = info->format; *c; ++c) {
    const uint8_t* at = ip + p;
    int bank = kiln_vm_bank_of_operand(*c);
    // A register shows its value; a register list shows each register's.
    uint32_t count = bank >= 0 ? 1 : *c == 'A' ? at[0] : 0;
    for (uint32_t k = 0; k < count; ++k) {
      if (first) fputs("  ;", s);
      first = false;
      if (bank >= 0) {
        kiln_vm_trace_register(s, regs, bank, kiln_vm_rd16(at));
      } else {
        kiln_vm_trace_register(s, regs, at[1 + 3 * k],
                               kiln_vm_rd16(at + 2 + 3 * k));
      }
    }
    p += kiln_vm_operand_size(*c, at);
  }
  fputc('\n', s);
}

static kiln_status_t kiln_vm_run_loop(kiln_vm_stack_t* stack) {
  kiln_status_t status = kiln_ok_status();
  kiln_vm_frame_t* frame;
  const kiln_vm_bc_function_t* fn;
  const uint8_t* code;
  const uint8_t* ip;
  kiln_vm_regs_t regs;

reload:
  frame = &stack->frames[stack->depth - 1];
  fn = frame->function;
  code = fn->code;
  ip = code + frame->pc;
  regs = kiln_vm_frame_regs(stack, frame);

  for (;;) {
    // One predictable branch per instruction when not tracing.
    if (__builtin_expect(stack->trace_execution != NULL, 0)) {
      kiln_vm_trace_instruction(stack->trace_execution, frame, ip, &regs);
    }
    switch (kiln_vm_rd16(ip)) {
      //===------------------------------------------------------------===//
      // Constants, moves, select
      //===------------------------------------------------------------===//
      case KILN_VM_OP_CONST_I32:
        RI32[R(0)] = (int32_t)OP32(4);
        ip += 8;
        break;
      case KILN_VM_OP_CONST_I64:
        RI64[R(0)] = (int64_t)kiln_vm_rd64(ip + 4);
        ip += 12;
        break;
      case KILN_VM_OP_CONST_F32:
        memcpy(&RF32[R(0)], ip + 4, 4);
        ip += 8;
        break;
      case KILN_VM_OP_CONST_F64:
        memcpy(&RF64[R(0)], ip + 4, 8);
        ip += 12;
        break;
      case KILN_VM_OP_CONST_REF_NULL: {
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = NULL;
        kiln_ref_release(old);
        ip += 4;
        break;
      }
      case KILN_VM_OP_RODATA_REF: {
        if (frame->state->module->rodata_crcs) {
          // First use of a weight the load did not read: check it now.
          status = kiln_vm_bytecode_module_check_rodata(frame->state->module,
                                                        OP32(4));
          if (status) {
            frame->pc = (uint32_t)(ip - code);
            goto error;
          }
        }
        kiln_ref_object_t* value = &frame->state->rodata_buffers[OP32(4)]->ref;
        kiln_ref_retain(value);
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = value;
        kiln_ref_release(old);
        ip += 8;
        break;
      }
      case KILN_VM_OP_EXECUTABLE_REF: {
        kiln_ref_object_t* value =
            (kiln_ref_object_t*)frame->state->executable_refs[OP32(4)];
        kiln_ref_retain(value);
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = value;
        kiln_ref_release(old);
        ip += 8;
        break;
      }
      //===------------------------------------------------------------===//
      // Globals (per-context state; every access under the state's mutex)
      //===------------------------------------------------------------===//
#define GLOBAL_LOAD(SUF, DST, FIELD)                     \
  case KILN_VM_OP_GLOBAL_LOAD_##SUF: {                   \
    kiln_vm_bc_state_t* st = frame->state;               \
    kiln_mutex_lock(&st->globals_mutex);                 \
    DST[R(0)] = st->globals[kiln_vm_rd32(ip + 4)].FIELD; \
    kiln_mutex_unlock(&st->globals_mutex);               \
    ip += 8;                                             \
    break;                                               \
  }
#define GLOBAL_STORE(SUF, SRC, FIELD)                       \
  case KILN_VM_OP_GLOBAL_STORE_##SUF: {                     \
    kiln_vm_bc_state_t* st = frame->state;                  \
    kiln_mutex_lock(&st->globals_mutex);                    \
    st->globals[OP32(2)].FIELD = SRC[kiln_vm_rd16(ip + 6)]; \
    kiln_mutex_unlock(&st->globals_mutex);                  \
    ip += 8;                                                \
    break;                                                  \
  }
        GLOBAL_LOAD(I32, RI32, i32)
        GLOBAL_LOAD(I64, RI64, i64)
        GLOBAL_LOAD(F32, RF32, f32)
        GLOBAL_LOAD(F64, RF64, f64)
        GLOBAL_STORE(I32, RI32, i32)
        GLOBAL_STORE(I64, RI64, i64)
        GLOBAL_STORE(F32, RF32, f32)
        GLOBAL_STORE(F64, RF64, f64)
#undef GLOBAL_LOAD
#undef GLOBAL_STORE
      case KILN_VM_OP_GLOBAL_LOAD_REF: {
        // Retained under the lock: a concurrent store cannot free it.
        kiln_vm_bc_state_t* st = frame->state;
        kiln_mutex_lock(&st->globals_mutex);
        kiln_ref_object_t* value = st->globals[OP32(4)].ref;
        kiln_ref_retain(value);
        kiln_mutex_unlock(&st->globals_mutex);
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = value;
        kiln_ref_release(old);
        ip += 8;
        break;
      }
      case KILN_VM_OP_GLOBAL_STORE_REF: {
        kiln_vm_bc_state_t* st = frame->state;
        kiln_ref_object_t* value = REF[kiln_vm_rd16(ip + 6)];
        kiln_ref_retain(value);
        kiln_mutex_lock(&st->globals_mutex);
        kiln_ref_object_t* old = st->globals[OP32(2)].ref;
        st->globals[OP32(2)].ref = value;
        kiln_mutex_unlock(&st->globals_mutex);
        kiln_ref_release(old);  // outside the lock: may run a destructor
        ip += 8;
        break;
      }
      case KILN_VM_OP_GLOBAL_STORE_IF_NULL_REF: {
        // rGr: the destination receives the winner (the global's value
        // after the operation), so racing lazy initializations agree.
        kiln_vm_bc_state_t* st = frame->state;
        kiln_ref_object_t* value = REF[kiln_vm_rd16(ip + 8)];
        kiln_vm_value_t* g = &st->globals[OP32(4)];
        kiln_mutex_lock(&st->globals_mutex);
        if (!g->ref) {
          kiln_ref_retain(value);
          g->ref = value;
        }
        kiln_ref_object_t* winner = g->ref;
        kiln_ref_retain(winner);
        kiln_mutex_unlock(&st->globals_mutex);
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = winner;
        kiln_ref_release(old);
        ip += 10;
        break;
      }
      case KILN_VM_OP_MOV_I32:
        RI32[R(0)] = RI32[R(1)];
        ip += 6;
        break;
      case KILN_VM_OP_MOV_I64:
        RI64[R(0)] = RI64[R(1)];
        ip += 6;
        break;
      case KILN_VM_OP_MOV_F32:
        RF32[R(0)] = RF32[R(1)];
        ip += 6;
        break;
      case KILN_VM_OP_MOV_F64:
        RF64[R(0)] = RF64[R(1)];
        ip += 6;
        break;
      case KILN_VM_OP_MOV_REF: {
        kiln_ref_object_t* value = REF[R(1)];
        kiln_ref_retain(value);
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = value;
        kiln_ref_release(old);
        ip += 6;
        break;
      }
      case KILN_VM_OP_SELECT_I32:
        RI32[R(0)] = RI32[R(1)] ? RI32[R(2)] : RI32[R(3)];
        ip += 10;
        break;
      case KILN_VM_OP_SELECT_I64:
        RI64[R(0)] = RI32[R(1)] ? RI64[R(2)] : RI64[R(3)];
        ip += 10;
        break;
      case KILN_VM_OP_SELECT_F32:
        RF32[R(0)] = RI32[R(1)] ? RF32[R(2)] : RF32[R(3)];
        ip += 10;
        break;
      case KILN_VM_OP_SELECT_F64:
        RF64[R(0)] = RI32[R(1)] ? RF64[R(2)] : RF64[R(3)];
        ip += 10;
        break;
      case KILN_VM_OP_SELECT_REF: {
        kiln_ref_object_t* value = RI32[R(1)] ? REF[R(2)] : REF[R(3)];
        kiln_ref_retain(value);
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = value;
        kiln_ref_release(old);
        ip += 10;
        break;
      }

        //===------------------------------------------------------------===//
        // Arithmetic and comparisons
        //===------------------------------------------------------------===//
        INT_OPS(I32, RI32, uint32_t, int32_t, 32, __builtin_clz,
                __builtin_popcount)
        INT_OPS(I64, RI64, uint64_t, int64_t, 64, __builtin_clzll,
                __builtin_popcountll)
        FLOAT_OPS(F32, RF32)
        FLOAT_OPS(F64, RF64)

        //===------------------------------------------------------------===//
        // Conversions
        //===------------------------------------------------------------===//
#define CONV_ROW_(NAME, DST, SRC, EXPR) CONV(NAME, R##DST, R##SRC, EXPR)
        KILN_VM_CONVERSION_OPS(CONV_ROW_)

        //===------------------------------------------------------------===//
        // Buffers
        //===------------------------------------------------------------===//
        BUF_LOAD(I8_S, RI32, int8_t, (int32_t)a)
        BUF_LOAD(I8_U, RI32, uint8_t, (int32_t)a)
        BUF_LOAD(I16_S, RI32, int16_t, (int32_t)a)
        BUF_LOAD(I16_U, RI32, uint16_t, (int32_t)a)
        BUF_LOAD(I32, RI32, int32_t, a)
        BUF_LOAD(I64, RI64, int64_t, a)
        BUF_LOAD(F32, RF32, float, a)
        BUF_LOAD(F64, RF64, double, a)
        BUF_STORE(I8, RI32, uint8_t)
        BUF_STORE(I16, RI32, uint16_t)
        BUF_STORE(I32, RI32, int32_t)
        BUF_STORE(I64, RI64, int64_t)
        BUF_STORE(F32, RF32, float)
        BUF_STORE(F64, RF64, double)
      case KILN_VM_OP_BUFFER_LENGTH: {
        kiln_vm_buffer_t* buffer = NULL;
        CHECK(kiln_vm_buffer_operand(REF[R(1)], &buffer));
        RI64[R(0)] = (int64_t)buffer->length;
        ip += 6;
        break;
      }
      case KILN_VM_OP_BUFFER_ALLOC: {
        int64_t length = RI64[R(1)];
        if (length < 0 || length > (INT64_C(1) << 40)) {
          CHECK(kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                 "buffer.alloc: bad length %" PRId64, length));
        }
        kiln_vm_buffer_t* buffer = NULL;
        CHECK(kiln_vm_buffer_allocate((size_t)length, 64, stack->allocator,
                                      &buffer));
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = &buffer->ref;
        kiln_ref_release(old);
        ip += 6;
        break;
      }
      case KILN_VM_OP_BUFFER_COPY: {
        kiln_vm_buffer_t *src = NULL, *dst = NULL;
        CHECK(kiln_vm_buffer_operand(REF[R(0)], &src));
        CHECK(kiln_vm_buffer_operand(REF[R(2)], &dst));
        int64_t src_off = RI64[R(1)], dst_off = RI64[R(3)], len = RI64[R(4)];
        if (src_off < 0 || dst_off < 0 || len < 0) {
          CHECK(kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                                 "buffer.copy: negative offset or length"));
        }
        CHECK(kiln_vm_buffer_check_range(src, (uint64_t)src_off, (uint64_t)len,
                                         false));
        CHECK(kiln_vm_buffer_check_range(dst, (uint64_t)dst_off, (uint64_t)len,
                                         true));
        if (len) memmove(dst->data + dst_off, src->data + src_off, (size_t)len);
        ip += 12;
        break;
      }
      case KILN_VM_OP_DOT_F32:
      case KILN_VM_OP_DOT_F16: {
        bool f16 = kiln_vm_rd16(ip) == KILN_VM_OP_DOT_F16;
        const char* name = f16 ? "dot.f16" : "dot.f32";
        uint32_t size = f16 ? 2 : 4;
        const uint8_t *a = NULL, *b = NULL;
        int64_t sa = RI64[R(4)], sb = RI64[R(7)], count = RI64[R(8)];
        CHECK(kiln_vm_buffer_strided(REF[R(2)], RI64[R(3)], sa, count, size,
                                     name, &a));
        CHECK(kiln_vm_buffer_strided(REF[R(5)], RI64[R(6)], sb, count, size,
                                     name, &b));
        // Constant |f16| arguments: each call inlines to its own loop.
        RF32[R(0)] = f16 ? kiln_vm_dot(true, RF32[R(1)], a, sa, b, sb, count)
                         : kiln_vm_dot(false, RF32[R(1)], a, sa, b, sb, count);
        ip += 20;
        break;
      }
      case KILN_VM_OP_DOT8_F16: {
        // Every lane's elements are checked: lane q starts at index + q *
        // step (the steps may be anything, 0 for an operand all lanes
        // share); the loop ends on lane 0, whose elements the kernel takes.
        const uint8_t *a = NULL, *b = NULL;
        int64_t ia = RI64[R(9)], sa = RI64[R(10)], oa = RI64[R(11)];
        int64_t ib = RI64[R(13)], sb = RI64[R(14)], ob = RI64[R(15)];
        int64_t count = RI64[R(16)];
        for (int64_t q = KILN_VM_DOT8_LANES - 1; q >= 0; --q) {
          int64_t ja = 0, jb = 0;
          if (__builtin_mul_overflow(q, oa, &ja) ||
              __builtin_add_overflow(ia, ja, &ja) ||
              __builtin_mul_overflow(q, ob, &jb) ||
              __builtin_add_overflow(ib, jb, &jb)) {
            CHECK(kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                                   "dot8.f16: lane %" PRId64 " index overflows",
                                   q));
          }
          CHECK(kiln_vm_buffer_strided(REF[R(8)], ja, sa, count, 2, "dot8.f16",
                                       &a));
          CHECK(kiln_vm_buffer_strided(REF[R(12)], jb, sb, count, 2, "dot8.f16",
                                       &b));
        }
        float acc[KILN_VM_DOT8_LANES];
        for (int q = 0; q < KILN_VM_DOT8_LANES; ++q) acc[q] = RF32[R(q)];
        if (count > 0) kiln_vm_dot8_f16(acc, a, sa, oa, b, sb, ob, count);
        for (int q = 0; q < KILN_VM_DOT8_LANES; ++q) RF32[R(q)] = acc[q];
        ip += 2 + 2 * 17;
        break;
      }
      case KILN_VM_OP_BUFFER_FILL_I8: {
        kiln_vm_buffer_t* buffer = NULL;
        CHECK(kiln_vm_buffer_operand(REF[R(0)], &buffer));
        int64_t off = RI64[R(1)], len = RI64[R(2)];
        if (off < 0 || len < 0) {
          CHECK(kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                                 "buffer.fill: negative offset or length"));
        }
        CHECK(kiln_vm_buffer_check_range(buffer, (uint64_t)off, (uint64_t)len,
                                         true));
        if (len) memset(buffer->data + off, (uint8_t)RI32[R(3)], (size_t)len);
        ip += 10;
        break;
      }

      //===------------------------------------------------------------===//
      // Lists and refs
      //===------------------------------------------------------------===//
      case KILN_VM_OP_LIST_ALLOC: {
        int32_t capacity = RI32[R(1)];
        if (capacity < 0) {
          CHECK(kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                 "list.alloc: negative capacity %d", capacity));
        }
        kiln_vm_list_t* list = NULL;
        CHECK(kiln_vm_list_create((size_t)capacity, stack->allocator, &list));
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = (kiln_ref_object_t*)list;
        kiln_ref_release(old);
        ip += 6;
        break;
      }
      case KILN_VM_OP_LIST_SIZE: {
        kiln_vm_list_t* list = NULL;
        CHECK(kiln_vm_list_operand(REF[R(1)], &list));
        RI32[R(0)] = (int32_t)kiln_vm_list_size(list);
        ip += 6;
        break;
      }
      case KILN_VM_OP_LIST_RESIZE: {
        kiln_vm_list_t* list = NULL;
        CHECK(kiln_vm_list_operand(REF[R(0)], &list));
        int32_t size = RI32[R(1)];
        if (size < 0) {
          CHECK(kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                 "list.resize: negative size %d", size));
        }
        CHECK(kiln_vm_list_resize(list, (size_t)size));
        ip += 6;
        break;
      }
        LIST_GET(I32, RI32, KILN_VM_VALUE_TYPE_I32, i32)
        LIST_GET(I64, RI64, KILN_VM_VALUE_TYPE_I64, i64)
        LIST_GET(F32, RF32, KILN_VM_VALUE_TYPE_F32, f32)
        LIST_GET(F64, RF64, KILN_VM_VALUE_TYPE_F64, f64)
      case KILN_VM_OP_LIST_GET_REF: {
        kiln_vm_value_t v;
        CHECK(kiln_vm_list_element(REF[R(1)], RI32[R(2)],
                                   KILN_VM_VALUE_TYPE_REF, &v));
        kiln_ref_retain(v.ref);
        kiln_ref_object_t* old = REF[R(0)];
        REF[R(0)] = v.ref;
        kiln_ref_release(old);
        ip += 8;
        break;
      }
        LIST_SET(I32, RI32, kiln_vm_value_make_i32)
        LIST_SET(I64, RI64, kiln_vm_value_make_i64)
        LIST_SET(F32, RF32, kiln_vm_value_make_f32)
        LIST_SET(F64, RF64, kiln_vm_value_make_f64)
        LIST_SET(REF, REF, kiln_vm_value_make_ref)
      case KILN_VM_OP_REF_IS_NULL:
        RI32[R(0)] = REF[R(1)] == NULL;
        ip += 6;
        break;
      case KILN_VM_OP_REF_EQ:
        RI32[R(0)] = REF[R(1)] == REF[R(2)];
        ip += 8;
        break;

      //===------------------------------------------------------------===//
      // Control flow
      //===------------------------------------------------------------===//
      case KILN_VM_OP_BR: {
        uint32_t target = OP32(2);
        if (code + target <= ip && kiln_vm_deadline_passed(stack)) {
          goto deadline;
        }
        ip = code + target;
        break;
      }
      case KILN_VM_OP_BR_COND: {
        uint32_t target = RI32[R(0)] ? OP32(4) : OP32(8);
        if (code + target <= ip && kiln_vm_deadline_passed(stack)) {
          goto deadline;
        }
        ip = code + target;
        break;
      }
      case KILN_VM_OP_BR_TABLE: {
        int32_t index = RI32[R(0)];
        uint32_t count = OP16(8);
        uint32_t target = (index >= 0 && (uint32_t)index < count)
                              ? OP32(10 + 4 * index)
                              : OP32(4);
        if (code + target <= ip && kiln_vm_deadline_passed(stack)) {
          goto deadline;
        }
        ip = code + target;
        break;
      }
      case KILN_VM_OP_CALL:
      case KILN_VM_OP_CALL_IMPORT: {
        if (kiln_vm_deadline_passed(stack)) goto deadline;
        uint32_t ordinal = OP32(2);
        const uint8_t* args_list = ip + 6;
        const uint8_t* results_list =
            args_list + kiln_vm_reglist_size(args_list);
        frame->pc = (uint32_t)(ip - code);
        kiln_vm_bc_state_t* callee_state = frame->state;
        uint32_t callee = ordinal;
        if (kiln_vm_rd16(ip) == KILN_VM_OP_CALL_IMPORT) {
          kiln_vm_bc_import_binding_t* binding =
              &frame->state->imports[ordinal];
          if (!binding->target_bc_state) {
            CHECK(kiln_vm_call_native(stack,
                                      &frame->state->module->imports[ordinal],
                                      binding, &regs, args_list, results_list));
            ip = results_list + kiln_vm_reglist_size(results_list);
            if (stack->wait.wait) {
              frame->pc = (uint32_t)(ip - code);
              return kiln_ok_status();
            }
            break;
          }
          callee_state = binding->target_bc_state;
          callee = binding->target_function;
        }
        CHECK(kiln_vm_stack_push(stack, callee_state,
                                 &callee_state->module->functions[callee]));
        // The push may have moved the arena: recompute the caller's regs.
        kiln_vm_regs_t caller_regs =
            kiln_vm_frame_regs(stack, &stack->frames[stack->depth - 2]);
        kiln_vm_regs_t callee_regs =
            kiln_vm_frame_regs(stack, &stack->frames[stack->depth - 1]);
        kiln_vm_copy_args(&caller_regs, args_list, &callee_regs);
        goto reload;
      }
      case KILN_VM_OP_RET: {
        const uint8_t* list = ip + 2;
        uint32_t count = list[0];
        if (stack->depth == 1) {
          for (uint32_t i = 0; i < count; ++i) {
            int bank = list[1 + 3 * i];
            stack->results[i] =
                kiln_vm_reg_get(&regs, bank, kiln_vm_rd16(list + 2 + 3 * i));
            if (bank == KILN_VM_BANK_REF)
              kiln_ref_retain(stack->results[i].ref);
          }
          kiln_vm_stack_pop(stack);
          return kiln_ok_status();
        }
        kiln_vm_frame_t* caller = &stack->frames[stack->depth - 2];
        const uint8_t* call_ip = caller->function->code + caller->pc;
        const uint8_t* call_args = call_ip + 6;
        const uint8_t* call_results =
            call_args + kiln_vm_reglist_size(call_args);
        kiln_vm_regs_t caller_regs = kiln_vm_frame_regs(stack, caller);
        for (uint32_t i = 0; i < count; ++i) {
          int bank = list[1 + 3 * i];
          kiln_vm_value_t v =
              kiln_vm_reg_get(&regs, bank, kiln_vm_rd16(list + 2 + 3 * i));
          if (bank == KILN_VM_BANK_REF) kiln_ref_retain(v.ref);
          kiln_vm_reg_set_move(&caller_regs, call_results[1 + 3 * i],
                               kiln_vm_rd16(call_results + 2 + 3 * i), &v);
        }
        caller->pc =
            (uint32_t)(call_results + kiln_vm_reglist_size(call_results) -
                       caller->function->code);
        kiln_vm_stack_pop(stack);
        goto reload;
      }
      case KILN_VM_OP_FAIL: {
        frame->pc = (uint32_t)(ip - code);
        status = kiln_vm_fail_status(RI32[R(0)],
                                     frame->state->module->strings[OP32(4)]);
        goto error;
      }
      case KILN_VM_OP_TRACE: {
        const uint8_t* list = ip + 6;
        kiln_string_view_t msg = frame->state->module->strings[OP32(2)];
        fprintf(stderr, "[trace] %.*s:", KILN_SV_ARG(msg));
        for (uint32_t i = 0; i < list[0]; ++i) {
          kiln_vm_value_t v = kiln_vm_reg_get(&regs, list[1 + 3 * i],
                                              kiln_vm_rd16(list + 2 + 3 * i));
          switch (v.type) {
            case KILN_VM_VALUE_TYPE_I32:
              fprintf(stderr, " %d", v.i32);
              break;
            case KILN_VM_VALUE_TYPE_I64:
              fprintf(stderr, " %" PRId64, v.i64);
              break;
            case KILN_VM_VALUE_TYPE_F32:
              fprintf(stderr, " %g", v.f32);
              break;
            case KILN_VM_VALUE_TYPE_F64:
              fprintf(stderr, " %g", v.f64);
              break;
            default:
              fprintf(stderr, " %s", v.ref ? v.ref->type->name : "null");
              break;
          }
        }
        fprintf(stderr, "\n");
        ip = list + kiln_vm_reglist_size(list);
        break;
      }
      default:
        status = kiln_make_status(KILN_STATUS_INTERNAL, "unhandled opcode %u",
                                  kiln_vm_rd16(ip));
        goto error;
    }
  }

division_by_zero:
  status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "integer division by zero");
  goto error;
deadline:
  status = kiln_make_status(KILN_STATUS_DEADLINE_EXCEEDED,
                            "invocation deadline exceeded");
  goto error;
error:
  frame->pc = (uint32_t)(ip - code);
  status = kiln_vm_annotate_backtrace(stack, status);
  kiln_vm_stack_unwind(stack);
  return status;
}

//===----------------------------------------------------------------------===//
// Entry
//===----------------------------------------------------------------------===//

kiln_status_t kiln_vm_bytecode_run(kiln_vm_bc_state_t* state, uint32_t ordinal,
                                   const kiln_vm_value_t* args,
                                   size_t arg_count, kiln_vm_value_t* results,
                                   size_t result_count, int64_t deadline_ns,
                                   uint32_t max_call_depth,
                                   FILE* trace_execution) {
  kiln_vm_stack_t stack;
  memset(&stack, 0, sizeof(stack));
  stack.allocator = state->allocator;
  stack.max_depth = max_call_depth ? max_call_depth : KILN_VM_DEFAULT_MAX_DEPTH;
  stack.deadline_ns = deadline_ns;
  stack.results = results;
  stack.result_count = result_count;
  stack.trace_execution = trace_execution;
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(
      state->allocator, sizeof(kiln_vm_frame_t) * stack.max_depth,
      (void**)&stack.frames));
  const kiln_vm_bc_function_t* f = &state->module->functions[ordinal];
  kiln_status_t status = kiln_vm_stack_push(&stack, state, f);
  if (!status) {
    kiln_vm_regs_t regs = kiln_vm_frame_regs(&stack, &stack.frames[0]);
    uint16_t next[KILN_VM_BANK_COUNT] = {0};
    for (size_t i = 0; i < arg_count && i < f->sig.args.size; ++i) {
      int bank = kiln_vm_bank_of_type_char(f->sig.args.data[i]);
      kiln_vm_value_t v = args[i];
      if (bank == KILN_VM_BANK_REF) kiln_ref_retain(v.ref);
      kiln_vm_reg_set_move(&regs, bank, next[bank]++, &v);
    }
    // Run; between runs, perform the waits native calls asked for.
    for (;;) {
      status = kiln_vm_run_loop(&stack);
      if (status || !stack.wait.wait) break;
      kiln_vm_wait_request_t wait = stack.wait;
      memset(&stack.wait, 0, sizeof(stack.wait));
      status = wait.wait(wait.object, deadline_ns ? deadline_ns : INT64_MAX);
      if (status) {
        status = kiln_vm_annotate_backtrace(&stack, status);
        kiln_vm_stack_unwind(&stack);
        break;
      }
    }
  }
  kiln_vm_stack_unwind(&stack);
  kiln_allocator_free(state->allocator, stack.arena);
  kiln_allocator_free(state->allocator, stack.frames);
  return status;
}
