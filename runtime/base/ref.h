// Reference counting shared by every runtime object that crosses an API or
// lives in a VM register (HAL buffers, buffer views, fences, VM lists, ...).
//
// Each ref-counted struct embeds kiln_ref_object_t as its FIRST member. The
// header names the object's type (a static descriptor), so a VM ref register
// is just a kiln_ref_object_t* and type checks are one pointer compare.
#ifndef KILN_RUNTIME_BASE_REF_H_
#define KILN_RUNTIME_BASE_REF_H_

#ifndef __cplusplus
#include <stdatomic.h>
#endif
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
#ifdef __cplusplus
  int_fast32_t ref_count;  // atomic; C++ callers never touch it directly
#else
  atomic_int_fast32_t ref_count;
#endif
  const kiln_ref_type_t* type;
} kiln_ref_object_t;

// Initializes the header of a new object with a count of 1 (the creator's).
void kiln_ref_object_initialize(kiln_ref_object_t* object,
                                const kiln_ref_type_t* type);

// Adds a reference; NULL is allowed.
void kiln_ref_retain(void* object);

// Drops a reference and destroys the object when it was the last; NULL is
// allowed.
void kiln_ref_release(void* object);

// True if |object| is non-NULL and of |type|.
static inline bool kiln_ref_isa(const void* object,
                                const kiln_ref_type_t* type) {
  return object && ((const kiln_ref_object_t*)object)->type == type;
}

// Current count, for tests and leak diagnostics only.
int32_t kiln_ref_count(const void* object);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_RUNTIME_BASE_REF_H_
