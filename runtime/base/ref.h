// Reference counting shared by every runtime object that crosses an API or
// lives in a VM register (HAL buffers, buffer views, fences, VM lists, ...).
//
// Each ref-counted struct embeds kiln_ref_object_t as its FIRST member. The
// header names the object's type (a static descriptor), so a VM ref register
// is just a kiln_ref_object_t* and type checks are one pointer compare.
#ifndef KILN_RUNTIME_BASE_REF_H_
#define KILN_RUNTIME_BASE_REF_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Static description of a ref-counted type: a name for diagnostics and
// printing ("hal.buffer_view") and the function that frees an object once its
// count drops to zero.
typedef struct kiln_ref_type_t {
  const char* name;
  void (*destroy)(void* object);
} kiln_ref_type_t;

typedef struct kiln_ref_object_t {
  atomic_int_fast32_t ref_count;
  const kiln_ref_type_t* type;
} kiln_ref_object_t;

// Initializes the header of a new object with a count of 1 (the creator's).
static inline void kiln_ref_object_initialize(kiln_ref_object_t* object,
                                              const kiln_ref_type_t* type) {
  atomic_init(&object->ref_count, 1);
  object->type = type;
}

// Adds a reference; NULL is allowed.
static inline void kiln_ref_retain(void* object) {
  if (object) {
    atomic_fetch_add_explicit(&((kiln_ref_object_t*)object)->ref_count, 1,
                              memory_order_relaxed);
  }
}

// Drops a reference and destroys the object when it was the last; NULL is
// allowed.
static inline void kiln_ref_release(void* object) {
  if (!object) return;
  kiln_ref_object_t* header = (kiln_ref_object_t*)object;
  if (atomic_fetch_sub_explicit(&header->ref_count, 1, memory_order_acq_rel) ==
      1) {
    header->type->destroy(object);
  }
}

// True if |object| is non-NULL and of |type|.
static inline bool kiln_ref_isa(const void* object,
                                const kiln_ref_type_t* type) {
  return object && ((const kiln_ref_object_t*)object)->type == type;
}

// Current count, for tests and leak diagnostics only.
static inline int32_t kiln_ref_count(const void* object) {
  return object ? (int32_t)atomic_load(&((kiln_ref_object_t*)object)->ref_count)
                : 0;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_REF_H_
