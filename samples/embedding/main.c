// Embedding kiln in an application: load compiled modules, create a
// session on a CPU device, call a function with a buffer view and read the
// result back. Build: see samples/CMakeLists.txt (in tree) or
// samples/embedding/CMakeLists.txt (against an install); run:
//   embedding-sample model.kmod[,more.kmod...] [local-sync|local-task [FN]]
// Several modules load in order into the one session, so they share its
// device, and a later module may import an earlier one's exports. FN
// (default "abs") must be `(tensor<4xf32>) -> tensor<4xf32>`-like.
#include <stdio.h>
#include <string.h>

#include "runtime/session/session.h"

// Loads each path of the comma-separated |module_paths|, in order.
static kiln_status_t load_modules(kiln_runtime_session_t* session,
                                  const char* module_paths) {
  kiln_status_t status = kiln_ok_status();
  for (const char* p = module_paths; !status && *p;) {
    size_t length = strcspn(p, ",");
    char path[4096];
    if (length >= sizeof(path)) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "module path too long");
    }
    memcpy(path, p, length);
    path[length] = 0;
    if (length) status = kiln_runtime_session_load_module_file(session, path);
    p += length + (p[length] == ',');
  }
  return status;
}

static kiln_status_t run(const char* module_paths, const char* device,
                         const char* function_name) {
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = device;
  kiln_runtime_session_t* session = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_runtime_session_create(&options, kiln_allocator_system(), &session));

  kiln_vm_function_t function;
  kiln_hal_buffer_view_t* input = NULL;
  kiln_vm_value_t result = kiln_vm_value_make_none();
  kiln_status_t status = load_modules(session, module_paths);
  if (!status) {
    status =
        kiln_runtime_session_lookup_function(session, function_name, &function);
  }

  // The input: a 4xf32 buffer view in device memory, filled from the host.
  const float values[4] = {-1.5f, 2.0f, -3.25f, 0.0f};
  kiln_hal_buffer_t* buffer = NULL;
  if (!status) {
    status = kiln_hal_allocator_allocate_buffer(
        kiln_hal_device_allocator(kiln_runtime_session_device(session)), NULL,
        sizeof(values), &buffer);
  }
  if (!status) {
    status = kiln_hal_buffer_map_write(buffer, 0, values, sizeof(values));
  }
  if (!status) {
    const kiln_hal_dim_t shape[1] = {4};
    status = kiln_hal_buffer_view_create(buffer, 1, shape,
                                         KILN_HAL_ELEMENT_TYPE_FLOAT_32,
                                         KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR,
                                         kiln_allocator_system(), &input);
  }
  kiln_hal_buffer_release(buffer);

  // The call: arguments are borrowed, the result is ours to release.
  if (!status) {
    kiln_vm_value_t arg = kiln_vm_value_make_ref(input);
    status = kiln_runtime_session_call(session, function, &arg, 1, &result, 1);
  }
  if (!status && !kiln_ref_isa(result.ref, &kiln_hal_buffer_view_type)) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "expected a buffer view result");
  }
  if (!status) {
    kiln_hal_buffer_view_t* output = (kiln_hal_buffer_view_t*)result.ref;
    float out[4] = {0};
    status = kiln_hal_buffer_map_read(kiln_hal_buffer_view_buffer(output),
                                      kiln_hal_buffer_view_byte_offset(output),
                                      out, sizeof(out));
    if (!status) {
      printf("%s(-1.5 2 -3.25 0) = %g %g %g %g\n", function_name, out[0],
             out[1], out[2], out[3]);
    }
  }
  kiln_vm_value_release(&result);
  if (input) kiln_hal_buffer_view_release(input);
  kiln_runtime_session_release(session);
  return status;
}

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr,
            "usage: embedding-sample MODULE.kmod[,MODULE.kmod...] "
            "[DEVICE [FUNCTION]]\n");
    return 2;
  }
  kiln_status_t status = run(argv[1], argc > 2 ? argv[2] : "local-task",
                             argc > 3 ? argv[3] : "abs");
  return kiln_status_report_and_exit_code(status);
}
