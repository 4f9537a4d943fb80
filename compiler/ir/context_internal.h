// Private context internals shared by the IR implementation files.
#ifndef KILN_COMPILER_IR_CONTEXT_INTERNAL_H_
#define KILN_COMPILER_IR_CONTEXT_INTERNAL_H_

#include "compiler/ir/context.h"
#include "compiler/ir/op_registry.h"
#include "compiler/ir/types.h"

// A string-keyed open-addressing hash map (keys are interned views).
typedef struct kiln_ir_hash_map_t {
  size_t capacity;  // power of two
  size_t count;
  kiln_string_view_t* keys;
  void** values;
} kiln_ir_hash_map_t;

uint64_t kiln_ir_hash_bytes(const void* data, size_t size);
// Returns the value stored for |key| (compared by content) or NULL.
void* kiln_ir_hash_map_find(const kiln_ir_hash_map_t* map,
                            kiln_string_view_t key);
// Inserts or replaces; |key| must stay alive (intern it). false on OOM.
bool kiln_ir_hash_map_put(kiln_allocator_t allocator, kiln_ir_hash_map_t* map,
                          kiln_string_view_t key, void* value);
void kiln_ir_hash_map_free(kiln_allocator_t allocator, kiln_ir_hash_map_t* map);

// Uniques a type by its canonical text: returns the existing type with
// that text or arena-copies |proto| (shallow: its arrays must already be
// in the arena).
const kiln_ir_type_t* kiln_ir_unique_type(kiln_ir_context_t* context,
                                          const kiln_ir_type_t* proto);
// Records the sticky out-of-memory error.
void kiln_ir_context_set_oom(kiln_ir_context_t* context);

#endif  // KILN_COMPILER_IR_CONTEXT_INTERNAL_H_
