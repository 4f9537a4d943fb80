// vm.list: a ref-counted growable list of kiln_vm_value_t. Used for
// invocation arguments/results (kiln_vm_invoke_list), by bytecode (list.*
// ops) and by the HAL module for binding tables. A list is not internally
// synchronized: one writer at a time.
#ifndef KILN_RUNTIME_VM_LIST_H_
#define KILN_RUNTIME_VM_LIST_H_

#include <stddef.h>

#include "runtime/base/allocator.h"
#include "runtime/base/ref.h"
#include "runtime/base/status.h"
#include "runtime/vm/value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_vm_list_t kiln_vm_list_t;

// The type descriptor of vm.list (name "vm.list").
const kiln_ref_type_t* kiln_vm_list_type(void);

// Creates an empty list with room for |capacity| values; one reference.
kiln_status_t kiln_vm_list_create(size_t capacity, kiln_allocator_t allocator,
                                  kiln_vm_list_t** out_list);

static inline void kiln_vm_list_retain(kiln_vm_list_t* list) {
  kiln_ref_retain(list);
}
static inline void kiln_vm_list_release(kiln_vm_list_t* list) {
  kiln_ref_release(list);
}
// Returns |ref| as a list if it is one, else NULL (no retain).
static inline kiln_vm_list_t* kiln_vm_list_cast(void* ref) {
  return kiln_ref_isa(ref, kiln_vm_list_type()) ? (kiln_vm_list_t*)ref : NULL;
}

// Number of values in the list.
size_t kiln_vm_list_size(const kiln_vm_list_t* list);

// Grows (new values are NONE) or shrinks (dropped refs are released) to
// |new_size| values.
kiln_status_t kiln_vm_list_resize(kiln_vm_list_t* list, size_t new_size);

// Releases every value and sets the size to 0.
void kiln_vm_list_clear(kiln_vm_list_t* list);

// Reads value |index| (OUT_OF_RANGE past the end). A ref in |*out_value| is
// BORROWED: valid while the list holds it; retain it to keep it.
kiln_status_t kiln_vm_list_get_value(const kiln_vm_list_t* list, size_t index,
                                     kiln_vm_value_t* out_value);

// Stores a copy of |*value| at |index| (retaining a ref, releasing the old).
kiln_status_t kiln_vm_list_set_value(kiln_vm_list_t* list, size_t index,
                                     const kiln_vm_value_t* value);

// Appends a copy of |*value| (retaining a ref).
kiln_status_t kiln_vm_list_push_value(kiln_vm_list_t* list,
                                      const kiln_vm_value_t* value);

// Appends |value| taking over its reference (no retain): for results.
kiln_status_t kiln_vm_list_push_value_move(kiln_vm_list_t* list,
                                           kiln_vm_value_t* value);

// Reads ref |index| checking its type: INVALID_ARGUMENT if the element is
// not a ref or (when |type| is non-NULL) a non-null ref of another type
// ("list element 2 is hal.buffer, expected hal.buffer_view"). A null ref is
// returned as NULL. The result is BORROWED.
kiln_status_t kiln_vm_list_get_ref(const kiln_vm_list_t* list, size_t index,
                                   const kiln_ref_type_t* type,
                                   kiln_ref_object_t** out_ref);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_VM_LIST_H_
