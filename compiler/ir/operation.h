// Operations, values, blocks and regions: the SSA graph of the IR.
//
// An op has a name, a location, operands (uses of values), results, a
// dictionary of attributes, successor blocks and nested regions. A region
// holds a list of blocks; a block holds arguments and a doubly linked list
// of ops. Values are op results and block arguments; each keeps its list of
// uses so that replace-all-uses-with and "is this dead?" are O(uses).
//
// Successor operands: an op's operand array holds its regular operands
// first, then the operands passed to each successor in successor order;
// kiln_ir_successor_t says which slice belongs to which successor.
//
// Everything lives in the context arena (see context.h): erasing an op
// unlinks it and drops its uses; the memory goes with the context.
#ifndef KILN_COMPILER_IR_OPERATION_H_
#define KILN_COMPILER_IR_OPERATION_H_

#include "compiler/ir/attributes.h"
#include "compiler/ir/context.h"
#include "compiler/ir/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_ir_op_t kiln_ir_op_t;
typedef struct kiln_ir_block_t kiln_ir_block_t;
typedef struct kiln_ir_region_t kiln_ir_region_t;
typedef struct kiln_ir_value_t kiln_ir_value_t;
typedef struct kiln_ir_use_t kiln_ir_use_t;
struct kiln_ir_op_def_t;

//===----------------------------------------------------------------------===//
// Values and uses
//===----------------------------------------------------------------------===//

typedef enum kiln_ir_value_kind_e {
  KILN_IR_VALUE_RESULT = 0,
  KILN_IR_VALUE_BLOCK_ARG = 1,
} kiln_ir_value_kind_t;

// One use of a value: operand |index| of |owner|.
struct kiln_ir_use_t {
  kiln_ir_value_t* value;  // the used value (NULL while unset)
  kiln_ir_op_t* owner;
  uint32_t index;           // operand index in owner
  kiln_ir_use_t* prev_use;  // in value's use list
  kiln_ir_use_t* next_use;
};

struct kiln_ir_value_t {
  kiln_ir_value_kind_t kind;
  uint32_t index;  // result number or argument number
  const kiln_ir_type_t* type;
  kiln_ir_op_t* defining_op;           // RESULT
  kiln_ir_block_t* owner_block;        // BLOCK_ARG
  const kiln_ir_location_t* location;  // BLOCK_ARG (results use the op's)
  kiln_ir_use_t* first_use;
};

// True when the value has no uses.
static inline bool kiln_ir_value_use_empty(const kiln_ir_value_t* value) {
  return value->first_use == NULL;
}
size_t kiln_ir_value_num_uses(const kiln_ir_value_t* value);
// Replaces every use of |from| with |to| (types are not checked).
void kiln_ir_value_replace_all_uses_with(kiln_ir_value_t* from,
                                         kiln_ir_value_t* to);
// The block in which the value is defined (result: the op's block).
kiln_ir_block_t* kiln_ir_value_parent_block(const kiln_ir_value_t* value);
// Changes the type of a value (for type inference/refinement passes).
void kiln_ir_value_set_type(kiln_ir_value_t* value, const kiln_ir_type_t* type);

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

// Successor |block| receives operands [operand_start, +num_operands).
typedef struct kiln_ir_successor_t {
  kiln_ir_block_t* block;
  uint32_t operand_start;
  uint32_t num_operands;
} kiln_ir_successor_t;

struct kiln_ir_region_t {
  kiln_ir_op_t* parent_op;  // NULL while detached
  kiln_ir_block_t* first_block;
  kiln_ir_block_t* last_block;
};

struct kiln_ir_op_t {
  kiln_string_view_t name;             // interned "dialect.op"
  const struct kiln_ir_op_def_t* def;  // NULL for unregistered ops
  const kiln_ir_location_t* location;
  uint32_t num_operands;  // regular + successor operands
  uint32_t operand_capacity;
  kiln_ir_use_t* operands;
  uint32_t num_results;
  kiln_ir_value_t* results;
  uint32_t num_attributes;
  uint32_t attribute_capacity;
  kiln_ir_named_attribute_t* attributes;  // sorted by name
  uint32_t num_successors;
  kiln_ir_successor_t* successors;
  uint32_t num_regions;
  kiln_ir_region_t* regions;
  kiln_ir_block_t* parent_block;  // NULL while detached
  kiln_ir_op_t* prev;
  kiln_ir_op_t* next;
};

struct kiln_ir_block_t {
  kiln_ir_region_t* parent_region;  // NULL while detached
  kiln_ir_block_t* prev;
  kiln_ir_block_t* next;
  uint32_t num_args;
  uint32_t arg_capacity;
  kiln_ir_value_t** args;
  kiln_ir_op_t* first_op;
  kiln_ir_op_t* last_op;
};

// Everything needed to create an op. Build it with designated initializers
// or with the kiln_ir_op_state_add_* helpers (which grow the arrays in the
// context arena). Successor operands are the trailing |num_operands| -
// (sum of successor_operand_counts) ... i.e. after the regular operands, in
// successor order; |successor_operand_counts| NULL means all zero.
typedef struct kiln_ir_op_state_t {
  kiln_string_view_t name;
  const kiln_ir_location_t* location;  // NULL -> unknown
  size_t num_operands;
  kiln_ir_value_t** operands;
  size_t num_result_types;
  const kiln_ir_type_t** result_types;
  size_t num_attributes;
  kiln_ir_named_attribute_t* attributes;
  size_t num_successors;
  kiln_ir_block_t** successors;
  uint32_t* successor_operand_counts;
  // Regions: |num_regions| empty regions are created; if |region_bodies|
  // is set, region i takes over the blocks of region_bodies[i] (which may
  // be NULL for an empty region).
  size_t num_regions;
  kiln_ir_region_t** region_bodies;
  // Growth capacities used by the add helpers (leave zero).
  size_t operand_capacity, result_capacity, attribute_capacity,
      successor_capacity, region_capacity;
} kiln_ir_op_state_t;

// Initializes |state| to an empty state for op |name| at |location|.
void kiln_ir_op_state_init(kiln_ir_context_t* context,
                           kiln_ir_op_state_t* state, const char* name,
                           const kiln_ir_location_t* location);
kiln_status_t kiln_ir_op_state_add_operand(kiln_ir_context_t* context,
                                           kiln_ir_op_state_t* state,
                                           kiln_ir_value_t* value);
kiln_status_t kiln_ir_op_state_add_result_type(kiln_ir_context_t* context,
                                               kiln_ir_op_state_t* state,
                                               const kiln_ir_type_t* type);
// Adds (or replaces) attribute |name|.
kiln_status_t kiln_ir_op_state_add_attribute(kiln_ir_context_t* context,
                                             kiln_ir_op_state_t* state,
                                             const char* name,
                                             const kiln_ir_attribute_t* value);
kiln_status_t kiln_ir_op_state_add_named_attribute(
    kiln_ir_context_t* context, kiln_ir_op_state_t* state,
    kiln_ir_named_attribute_t attr);
// Adds a successor with |count| operands (appended to the operands).
kiln_status_t kiln_ir_op_state_add_successor(kiln_ir_context_t* context,
                                             kiln_ir_op_state_t* state,
                                             kiln_ir_block_t* block,
                                             size_t count,
                                             kiln_ir_value_t* const* operands);
// Adds a region whose blocks come from |body| (NULL: an empty region).
kiln_status_t kiln_ir_op_state_add_region(kiln_ir_context_t* context,
                                          kiln_ir_op_state_t* state,
                                          kiln_ir_region_t* body);

// Creates a detached op from |state|, looking its definition up in the
// context registry (def stays NULL for unknown names; the verifier decides
// whether that is allowed).
kiln_status_t kiln_ir_op_create(kiln_ir_context_t* context,
                                const kiln_ir_op_state_t* state,
                                kiln_ir_op_t** out_op);

// Name checks.
bool kiln_ir_op_is(const kiln_ir_op_t* op, const char* name);
// The dialect prefix of the name ("stablehlo" for "stablehlo.add").
kiln_string_view_t kiln_ir_op_dialect(const kiln_ir_op_t* op);

// Result |i| / operand |i| (the value used) / region |i|.
static inline kiln_ir_value_t* kiln_ir_op_result(kiln_ir_op_t* op, uint32_t i) {
  return &op->results[i];
}
static inline kiln_ir_value_t* kiln_ir_op_operand(kiln_ir_op_t* op,
                                                  uint32_t i) {
  return op->operands[i].value;
}
static inline kiln_ir_region_t* kiln_ir_op_region(kiln_ir_op_t* op,
                                                  uint32_t i) {
  return &op->regions[i];
}
// Number of regular (non-successor) operands.
uint32_t kiln_ir_op_num_regular_operands(const kiln_ir_op_t* op);

// Sets operand |i| to |value| (updating use lists).
void kiln_ir_op_set_operand(kiln_ir_op_t* op, uint32_t i,
                            kiln_ir_value_t* value);
// Replaces the regular operands with |values| (successor operands kept).
kiln_status_t kiln_ir_op_set_operands(kiln_ir_context_t* context,
                                      kiln_ir_op_t* op, size_t count,
                                      kiln_ir_value_t* const* values);

// Attributes (op attributes and properties share one sorted list).
const kiln_ir_attribute_t* kiln_ir_op_get_attr(const kiln_ir_op_t* op,
                                               const char* name);
// The bytes of string attribute |name| (|*out_length| of them), or "" with
// length 0 when the op has no such string attribute.
const char* kiln_ir_op_get_string_attr(const kiln_ir_op_t* op,
                                       const char* name, size_t* out_length);
// Adds or replaces; |is_property| selects `<{...}>` printing.
kiln_status_t kiln_ir_op_set_attr(kiln_ir_context_t* context, kiln_ir_op_t* op,
                                  const char* name,
                                  const kiln_ir_attribute_t* value,
                                  bool is_property);
// Removes; returns true when it was present.
bool kiln_ir_op_remove_attr(kiln_ir_op_t* op, const char* name);

// Structure.
kiln_ir_op_t* kiln_ir_op_parent_op(const kiln_ir_op_t* op);
kiln_ir_region_t* kiln_ir_op_parent_region(const kiln_ir_op_t* op);
// True when |ancestor| is |op| or encloses it.
bool kiln_ir_op_is_ancestor(const kiln_ir_op_t* ancestor,
                            const kiln_ir_op_t* op);
// The nearest enclosing op named |name| (or |op| itself), NULL if none.
kiln_ir_op_t* kiln_ir_op_parent_of_name(kiln_ir_op_t* op, const char* name);

// Inserts detached |op| before/after |anchor|, or at the end/start of
// |block|.
void kiln_ir_op_insert_before(kiln_ir_op_t* op, kiln_ir_op_t* anchor);
void kiln_ir_op_insert_after(kiln_ir_op_t* op, kiln_ir_op_t* anchor);
void kiln_ir_block_append_op(kiln_ir_block_t* block, kiln_ir_op_t* op);
void kiln_ir_block_prepend_op(kiln_ir_block_t* block, kiln_ir_op_t* op);
// Unlinks |op| from its block (it stays valid and can be re-inserted).
void kiln_ir_op_remove(kiln_ir_op_t* op);
// Moves |op| (attached or not) before/after |anchor|.
void kiln_ir_op_move_before(kiln_ir_op_t* op, kiln_ir_op_t* anchor);
void kiln_ir_op_move_after(kiln_ir_op_t* op, kiln_ir_op_t* anchor);
// Unlinks |op| and drops the uses made by it and by every op nested in it.
// Its results must have no remaining uses outside of it (debug: the
// verifier reports dangling uses).
void kiln_ir_op_erase(kiln_ir_op_t* op);
// Drops every operand use of |op| and of the ops nested in it.
void kiln_ir_op_drop_all_uses_made(kiln_ir_op_t* op);

//===----------------------------------------------------------------------===//
// Blocks and regions
//===----------------------------------------------------------------------===//

kiln_status_t kiln_ir_block_create(kiln_ir_context_t* context,
                                   kiln_ir_block_t** out_block);
// Appends an argument of |type| at |location| (NULL: unknown).
kiln_status_t kiln_ir_block_add_arg(kiln_ir_context_t* context,
                                    kiln_ir_block_t* block,
                                    const kiln_ir_type_t* type,
                                    const kiln_ir_location_t* location,
                                    kiln_ir_value_t** out_arg);
// Removes argument |index| (it must be unused).
void kiln_ir_block_erase_arg(kiln_ir_block_t* block, uint32_t index);
// The block's last op when it is registered as a terminator (or, when the
// op is unregistered, simply the last op); NULL otherwise.
kiln_ir_op_t* kiln_ir_block_terminator(kiln_ir_block_t* block);
kiln_ir_op_t* kiln_ir_block_parent_op(const kiln_ir_block_t* block);

// A detached region (for parsers/builders that fill a body before the op
// exists; see kiln_ir_op_state_add_region).
kiln_status_t kiln_ir_region_create(kiln_ir_context_t* context,
                                    kiln_ir_region_t** out_region);
void kiln_ir_region_append_block(kiln_ir_region_t* region,
                                 kiln_ir_block_t* block);
void kiln_ir_region_insert_block_after(kiln_ir_block_t* block,
                                       kiln_ir_block_t* anchor);
// Unlinks |block| from its region (ops inside stay).
void kiln_ir_block_remove(kiln_ir_block_t* block);
// Unlinks |block| and drops uses made by its ops.
void kiln_ir_block_erase(kiln_ir_block_t* block);
// Moves all blocks of |from| to the end of |to|.
void kiln_ir_region_take_body(kiln_ir_region_t* to, kiln_ir_region_t* from);
static inline bool kiln_ir_region_empty(const kiln_ir_region_t* region) {
  return region->first_block == NULL;
}
// Number of blocks / index of |block| in its region.
size_t kiln_ir_region_num_blocks(const kiln_ir_region_t* region);
size_t kiln_ir_block_index(const kiln_ir_block_t* block);

//===----------------------------------------------------------------------===//
// Walking and cloning
//===----------------------------------------------------------------------===//

typedef enum kiln_ir_walk_result_e {
  KILN_IR_WALK_ADVANCE = 0,    // continue
  KILN_IR_WALK_SKIP = 1,       // (pre-order only) do not visit nested ops
  KILN_IR_WALK_INTERRUPT = 2,  // stop the whole walk
} kiln_ir_walk_result_t;

typedef kiln_ir_walk_result_t (*kiln_ir_walk_fn_t)(kiln_ir_op_t* op,
                                                   void* user_data);

typedef enum kiln_ir_walk_order_e {
  KILN_IR_WALK_PRE_ORDER = 0,
  KILN_IR_WALK_POST_ORDER = 1,
} kiln_ir_walk_order_t;

// Visits |op| and every op nested in it. The callback may erase the op it
// is given in post-order walks (the next op is read before the call).
// Returns INTERRUPT when the walk was interrupted.
kiln_ir_walk_result_t kiln_ir_op_walk(kiln_ir_op_t* op,
                                      kiln_ir_walk_order_t order,
                                      kiln_ir_walk_fn_t fn, void* user_data);

// The ops nested in |root| (|root| included) for which |match| returns true
// (every op when |match| is NULL), in walk |order|, as an array in the
// context arena: rewrites collect first, then change the IR. RESOURCE_
// EXHAUSTED when out of memory.
typedef bool (*kiln_ir_op_match_fn_t)(const kiln_ir_op_t* op, void* user_data);
kiln_status_t kiln_ir_collect_ops(kiln_ir_context_t* context,
                                  kiln_ir_op_t* root,
                                  kiln_ir_walk_order_t order,
                                  kiln_ir_op_match_fn_t match, void* user_data,
                                  kiln_ir_op_t*** out_ops, size_t* out_count);

// Value -> value (and block -> block) mapping used by clone/inlining.
typedef struct kiln_ir_mapping_t kiln_ir_mapping_t;
kiln_status_t kiln_ir_mapping_create(kiln_ir_context_t* context,
                                     kiln_ir_mapping_t** out_mapping);
void kiln_ir_mapping_map_value(kiln_ir_mapping_t* mapping,
                               const kiln_ir_value_t* from,
                               kiln_ir_value_t* to);
void kiln_ir_mapping_map_block(kiln_ir_mapping_t* mapping,
                               const kiln_ir_block_t* from,
                               kiln_ir_block_t* to);
// The mapped value, or |value| itself when unmapped.
kiln_ir_value_t* kiln_ir_mapping_lookup_value(kiln_ir_mapping_t* mapping,
                                              kiln_ir_value_t* value);
kiln_ir_block_t* kiln_ir_mapping_lookup_block(kiln_ir_mapping_t* mapping,
                                              kiln_ir_block_t* block);

// Deep-copies |op| (with its regions) into a new detached op. Operands are
// remapped through |mapping| (unmapped values are used as is); the clone's
// results and nested values/blocks are added to |mapping|. |mapping| may be
// NULL.
kiln_status_t kiln_ir_op_clone(kiln_ir_context_t* context, kiln_ir_op_t* op,
                               kiln_ir_mapping_t* mapping,
                               kiln_ir_op_t** out_clone);
// Clones the blocks of |from| to the end of |to|, remapping as above.
kiln_status_t kiln_ir_region_clone_into(kiln_ir_context_t* context,
                                        kiln_ir_region_t* from,
                                        kiln_ir_region_t* to,
                                        kiln_ir_mapping_t* mapping);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_IR_OPERATION_H_
