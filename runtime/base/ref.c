#include "runtime/base/ref.h"

void kiln_ref_object_initialize(kiln_ref_object_t* object,
                                const kiln_ref_type_t* type) {
  atomic_init(&object->ref_count, 1);
  object->type = type;
}

void kiln_ref_retain(void* object) {
  if (object) {
    atomic_fetch_add_explicit(&((kiln_ref_object_t*)object)->ref_count, 1,
                              memory_order_relaxed);
  }
}

void kiln_ref_release(void* object) {
  if (!object) return;
  kiln_ref_object_t* header = (kiln_ref_object_t*)object;
  if (atomic_fetch_sub_explicit(&header->ref_count, 1,
                                memory_order_acq_rel) == 1) {
    header->type->destroy(object);
  }
}

int32_t kiln_ref_count(const void* object) {
  return object ? (int32_t)atomic_load(
                      &((kiln_ref_object_t*)object)->ref_count)
                : 0;
}
