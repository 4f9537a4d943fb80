// Values and signature strings.
#include "runtime/vm/value.h"

void kiln_vm_value_release(kiln_vm_value_t* value) {
  if (value->type == KILN_VM_VALUE_TYPE_REF) kiln_ref_release(value->ref);
  *value = kiln_vm_value_make_none();
}

void kiln_vm_values_release(kiln_vm_value_t* values, size_t count) {
  for (size_t i = 0; i < count; ++i) kiln_vm_value_release(&values[i]);
}

const char* kiln_vm_value_type_name(kiln_vm_value_type_t type) {
  switch (type) {
    case KILN_VM_VALUE_TYPE_I32:
      return "i32";
    case KILN_VM_VALUE_TYPE_I64:
      return "i64";
    case KILN_VM_VALUE_TYPE_F32:
      return "f32";
    case KILN_VM_VALUE_TYPE_F64:
      return "f64";
    case KILN_VM_VALUE_TYPE_REF:
      return "ref";
    default:
      return "none";
  }
}

char kiln_vm_value_type_char(kiln_vm_value_type_t type) {
  switch (type) {
    case KILN_VM_VALUE_TYPE_I32:
      return 'i';
    case KILN_VM_VALUE_TYPE_I64:
      return 'I';
    case KILN_VM_VALUE_TYPE_F32:
      return 'f';
    case KILN_VM_VALUE_TYPE_F64:
      return 'F';
    case KILN_VM_VALUE_TYPE_REF:
      return 'r';
    default:
      return 0;
  }
}

kiln_vm_value_type_t kiln_vm_value_type_from_char(char c) {
  switch (c) {
    case 'i':
      return KILN_VM_VALUE_TYPE_I32;
    case 'I':
      return KILN_VM_VALUE_TYPE_I64;
    case 'f':
      return KILN_VM_VALUE_TYPE_F32;
    case 'F':
      return KILN_VM_VALUE_TYPE_F64;
    case 'r':
      return KILN_VM_VALUE_TYPE_REF;
    default:
      return KILN_VM_VALUE_TYPE_NONE;
  }
}

kiln_status_t kiln_vm_signature_parse(kiln_string_view_t signature,
                                      kiln_vm_signature_t* out) {
  size_t arrow = SIZE_MAX;
  for (size_t i = 0; i + 1 < signature.size; ++i) {
    if (signature.data[i] == '-' && signature.data[i + 1] == '>') {
      arrow = i;
      break;
    }
  }
  if (arrow == SIZE_MAX) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "signature '%.*s' has no '->'",
                            KILN_SV_ARG(signature));
  }
  out->args = kiln_make_string_view(signature.data, arrow);
  out->results = kiln_make_string_view(signature.data + arrow + 2,
                                       signature.size - arrow - 2);
  out->variadic = false;
  if (kiln_string_view_ends_with(out->args, kiln_make_cstring_view("..."))) {
    out->variadic = true;
    out->args.size -= 3;
  }
  for (size_t i = 0; i < out->args.size; ++i) {
    if (kiln_vm_value_type_from_char(out->args.data[i]) ==
        KILN_VM_VALUE_TYPE_NONE) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "signature '%.*s': bad argument type character '%c'",
          KILN_SV_ARG(signature), out->args.data[i]);
    }
  }
  for (size_t i = 0; i < out->results.size; ++i) {
    if (kiln_vm_value_type_from_char(out->results.data[i]) ==
        KILN_VM_VALUE_TYPE_NONE) {
      return kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "signature '%.*s': bad result type character '%c'",
          KILN_SV_ARG(signature), out->results.data[i]);
    }
  }
  return kiln_ok_status();
}
