// vm.list: a growable array of values.
#include "runtime/vm/list.h"

#include <string.h>

struct kiln_vm_list_t {
  kiln_ref_object_t ref;
  kiln_allocator_t allocator;
  size_t size;
  size_t capacity;
  kiln_vm_value_t* values;
};

static void kiln_vm_list_destroy(void* object) {
  kiln_vm_list_t* list = (kiln_vm_list_t*)object;
  kiln_vm_values_release(list->values, list->size);
  kiln_allocator_free(list->allocator, list->values);
  kiln_allocator_free(list->allocator, list);
}

static const kiln_ref_type_t kiln_vm_list_type_descriptor = {
    "vm.list", kiln_vm_list_destroy};

const kiln_ref_type_t* kiln_vm_list_type(void) {
  return &kiln_vm_list_type_descriptor;
}

static kiln_status_t kiln_vm_list_reserve(kiln_vm_list_t* list,
                                          size_t capacity) {
  if (capacity <= list->capacity) return kiln_ok_status();
  size_t new_capacity = list->capacity ? list->capacity * 2 : 4;
  if (new_capacity < capacity) new_capacity = capacity;
  size_t bytes = 0;
  if (kiln_mul_overflow_size(new_capacity, sizeof(kiln_vm_value_t), &bytes)) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "list capacity %zu too large", capacity);
  }
  void* values = list->values;
  KILN_RETURN_IF_ERROR(kiln_allocator_realloc(list->allocator, bytes, &values));
  list->values = (kiln_vm_value_t*)values;
  list->capacity = new_capacity;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_list_create(size_t capacity, kiln_allocator_t allocator,
                                  kiln_vm_list_t** out_list) {
  *out_list = NULL;
  kiln_vm_list_t* list = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*list), (void**)&list));
  kiln_ref_object_initialize(&list->ref, &kiln_vm_list_type_descriptor);
  list->allocator = allocator;
  kiln_status_t status = kiln_vm_list_reserve(list, capacity);
  if (status) {
    kiln_allocator_free(allocator, list);
    return status;
  }
  *out_list = list;
  return kiln_ok_status();
}

size_t kiln_vm_list_size(const kiln_vm_list_t* list) {
  return list->size;
}

kiln_status_t kiln_vm_list_resize(kiln_vm_list_t* list, size_t new_size) {
  if (new_size > list->size) {
    KILN_RETURN_IF_ERROR(kiln_vm_list_reserve(list, new_size));
    for (size_t i = list->size; i < new_size; ++i) {
      list->values[i] = kiln_vm_value_make_none();
    }
  } else {
    kiln_vm_values_release(list->values + new_size, list->size - new_size);
  }
  list->size = new_size;
  return kiln_ok_status();
}

void kiln_vm_list_clear(kiln_vm_list_t* list) {
  kiln_vm_values_release(list->values, list->size);
  list->size = 0;
}

static kiln_status_t kiln_vm_list_check_index(const kiln_vm_list_t* list,
                                              size_t index) {
  if (index >= list->size) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "list index %zu out of range (size %zu)", index,
                            list->size);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_list_get_value(const kiln_vm_list_t* list, size_t index,
                                     kiln_vm_value_t* out_value) {
  KILN_RETURN_IF_ERROR(kiln_vm_list_check_index(list, index));
  *out_value = list->values[index];
  return kiln_ok_status();
}

kiln_status_t kiln_vm_list_set_value(kiln_vm_list_t* list, size_t index,
                                     const kiln_vm_value_t* value) {
  KILN_RETURN_IF_ERROR(kiln_vm_list_check_index(list, index));
  if (value->type == KILN_VM_VALUE_TYPE_REF) kiln_ref_retain(value->ref);
  kiln_vm_value_release(&list->values[index]);
  list->values[index] = *value;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_list_push_value(kiln_vm_list_t* list,
                                      const kiln_vm_value_t* value) {
  KILN_RETURN_IF_ERROR(kiln_vm_list_reserve(list, list->size + 1));
  if (value->type == KILN_VM_VALUE_TYPE_REF) kiln_ref_retain(value->ref);
  list->values[list->size++] = *value;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_list_push_value_move(kiln_vm_list_t* list,
                                           kiln_vm_value_t* value) {
  KILN_RETURN_IF_ERROR(kiln_vm_list_reserve(list, list->size + 1));
  list->values[list->size++] = *value;
  *value = kiln_vm_value_make_none();
  return kiln_ok_status();
}

kiln_status_t kiln_vm_list_get_ref(const kiln_vm_list_t* list, size_t index,
                                   const kiln_ref_type_t* type,
                                   kiln_ref_object_t** out_ref) {
  *out_ref = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_list_check_index(list, index));
  const kiln_vm_value_t* value = &list->values[index];
  if (value->type != KILN_VM_VALUE_TYPE_REF) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "list element %zu is %s, expected a ref", index,
                            kiln_vm_value_type_name(value->type));
  }
  if (type && value->ref && value->ref->type != type) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "list element %zu is %s, expected %s", index,
                            value->ref->type->name, type->name);
  }
  *out_ref = value->ref;
  return kiln_ok_status();
}
