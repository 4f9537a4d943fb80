// kiln._compiler: the compiler in-process through the embedding API
// (compiler/api), under kiln.compiler (compiler.py holds the
// iree.compiler-shaped API).
//
//   compile(source: bytes, filename: str, flags: list[str])
//       -> (output bytes, log str)
//
// |flags| are kiln-compile's compiler flags ("--iree-hal-target-backends=
// vmvx", "--output-format=vm-asm", ...), applied with
// kiln_compiler_session_set_flags so that both accept the same set. On
// failure raises CompilerError(message, diagnostics): the status and the
// "file:line:col: error: ..." lines the driver printed, captured from a
// memory stream instead of stderr; on success |log| holds what the driver
// printed (warnings, --timing, --mlir-print-ir-*). The GIL is released
// while compiling; concurrent compiles share nothing (the API's threading
// contract). The compiler is initialized when the module is imported and
// stays so for the life of the process.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>
#include <stdlib.h>

#include "compiler/api/compiler_api.h"

static PyObject* kiln_py_compiler_error;  // kiln._compiler.CompilerError

// Raises CompilerError(message, diagnostics); consumes |status|.
static PyObject* kiln_py_compiler_raise(kiln_status_t status,
                                        const char* diagnostics) {
  PyObject* args = Py_BuildValue("(ss)", kiln_status_message(status),
                                 diagnostics ? diagnostics : "");
  kiln_status_free(status);
  if (args) {
    PyErr_SetObject(kiln_py_compiler_error, args);
    Py_DECREF(args);
  }
  return NULL;
}

// One compilation with the API: |flags| applied to a fresh session, the
// source wrapped (not copied), diagnostics and dumps to |log|, the output
// into |module|.
static kiln_status_t kiln_py_compile_source(const char* const* flags,
                                            int flag_count,
                                            const char* filename,
                                            const void* data, size_t length,
                                            FILE* log,
                                            kiln_compiler_output_t* module) {
  kiln_compiler_session_t* session = NULL;
  kiln_compiler_source_t* source = NULL;
  kiln_compiler_invocation_t* invocation = NULL;
  kiln_status_t status =
      kiln_compiler_session_create(kiln_allocator_system(), &session);
  if (!status) {
    status = kiln_compiler_session_set_flags(session, flag_count, flags);
  }
  if (!status) {
    status = kiln_compiler_source_wrap_buffer(session, filename, data, length,
                                              &source);
  }
  if (!status) status = kiln_compiler_invocation_create(session, &invocation);
  if (!status) {
    kiln_compiler_invocation_set_diagnostic_stream(invocation, log);
    kiln_compiler_invocation_set_dump_stream(invocation, log);
    status = kiln_compiler_invocation_parse_source(invocation, source);
  }
  if (!status) status = kiln_compiler_invocation_run_pipeline(invocation);
  if (!status) status = kiln_compiler_invocation_output(invocation, module);
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);
  kiln_compiler_session_destroy(session);
  return status;
}

static PyObject* kiln_py_compile(PyObject* unused, PyObject* args) {
  Py_buffer source;
  const char* filename = NULL;
  PyObject* flag_list = NULL;
  if (!PyArg_ParseTuple(args, "y*sO!", &source, &filename, &PyList_Type,
                        &flag_list)) {
    return NULL;
  }
  // The flag strings belong to a tuple that lives through the compile,
  // whatever happens to the caller's list meanwhile.
  PyObject* flags = PyList_AsTuple(flag_list);
  const char** flag_strings = NULL;
  Py_ssize_t flag_count = flags ? PyTuple_GET_SIZE(flags) : 0;
  if (flags) {
    flag_strings =
        PyMem_Calloc(flag_count ? (size_t)flag_count : 1, sizeof(const char*));
    if (!flag_strings) PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; flag_strings && i < flag_count; ++i) {
    flag_strings[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(flags, i));
    if (!flag_strings[i]) {
      PyMem_Free(flag_strings);
      flag_strings = NULL;
    }
  }
  if (!flag_strings) {
    PyBuffer_Release(&source);
    Py_XDECREF(flags);
    return NULL;
  }
  // Diagnostics and dumps (--mlir-print-ir-*, --timing) go to one memory
  // stream, returned with the error or the output.
  char* log = NULL;
  size_t log_size = 0;
  FILE* log_stream = open_memstream(&log, &log_size);
  kiln_compiler_output_t* module = NULL;
  kiln_status_t status = kiln_ok_status();
  if (!log_stream) {
    PyBuffer_Release(&source);
    Py_DECREF(flags);
    PyMem_Free(flag_strings);
    return PyErr_SetFromErrno(PyExc_OSError);
  }
  status = kiln_compiler_output_open_memory(kiln_allocator_system(), &module);
  if (!status) {
    PyThreadState* thread = PyEval_SaveThread();
    status = kiln_py_compile_source(flag_strings, (int)flag_count, filename,
                                    source.buf, (size_t)source.len, log_stream,
                                    module);
    PyEval_RestoreThread(thread);
  }
  PyBuffer_Release(&source);
  Py_DECREF(flags);
  PyMem_Free(flag_strings);
  fclose(log_stream);
  PyObject* result = NULL;
  const void* bytes = NULL;
  size_t length = 0;
  if (!status)
    status = kiln_compiler_output_map_memory(module, &bytes, &length);
  if (status) {
    kiln_py_compiler_raise(status, log);
  } else {
    result = Py_BuildValue("(y#s)", (const char*)bytes, (Py_ssize_t)length,
                           log ? log : "");
  }
  kiln_compiler_output_destroy(module);
  free(log);  // open_memstream's buffer is malloc'd
  return result;
}

static PyMethodDef kiln_py_compiler_methods[] = {
    {"compile", kiln_py_compile, METH_VARARGS,
     "compile(source, filename, flags) -> (bytes, log)"},
    {0},
};

static struct PyModuleDef kiln_py_compiler_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kiln._compiler",
    .m_doc = "kiln's compiler driver (use kiln.compiler).",
    .m_size = -1,
    .m_methods = kiln_py_compiler_methods,
};

PyMODINIT_FUNC PyInit__compiler(void) {
  // Held for the life of the process (never shut down: the interpreter may
  // compile until it exits).
  kiln_status_t status = kiln_compiler_global_initialize();
  if (status) {
    PyErr_SetString(PyExc_RuntimeError, kiln_status_message(status));
    kiln_status_free(status);
    return NULL;
  }
  PyObject* module = PyModule_Create(&kiln_py_compiler_def);
  if (!module) return NULL;
  kiln_py_compiler_error = PyErr_NewExceptionWithDoc(
      "kiln._compiler.CompilerError",
      "Compilation failed: args are (message, diagnostics).",
      PyExc_RuntimeError, NULL);
  if (!kiln_py_compiler_error ||
      PyModule_AddObject(module, "CompilerError",
                         Py_NewRef(kiln_py_compiler_error)) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
