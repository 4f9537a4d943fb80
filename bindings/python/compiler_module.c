// kiln._compiler: the compiler driver (compiler/driver) in-process, under
// kiln.compiler (compiler.py holds the iree.compiler-shaped API).
//
//   compile(source: bytes, filename: str, flags: list[str])
//       -> (output bytes, log str)
//
// |flags| are kiln-compile's compiler flags ("--iree-hal-target-backends=
// vmvx", "--output-format=vm-asm", ...), applied with
// kiln_compiler_options_parse_flag so that both accept the same set. On
// failure raises CompilerError(message, diagnostics): the status and the
// "file:line:col: error: ..." lines the driver printed, captured from a
// memory stream instead of stderr; on success |log| holds what the driver
// printed (warnings, --timing, --mlir-print-ir-*). The GIL is released
// while compiling; concurrent compiles share nothing.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdio.h>
#include <stdlib.h>

#include "compiler/driver/driver.h"

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

static PyObject* kiln_py_compile(PyObject* unused, PyObject* args) {
  Py_buffer source;
  const char* filename = NULL;
  PyObject* flag_list = NULL;
  if (!PyArg_ParseTuple(args, "y*sO!", &source, &filename, &PyList_Type,
                        &flag_list)) {
    return NULL;
  }
  // Options point into the flag strings: a tuple holds them for the whole
  // compile, whatever happens to the caller's list meanwhile.
  PyObject* flags = PyList_AsTuple(flag_list);
  if (!flags) {
    PyBuffer_Release(&source);
    return NULL;
  }
  kiln_compiler_options_t options;
  kiln_compiler_options_initialize(&options);
  kiln_status_t status = kiln_ok_status();
  for (Py_ssize_t i = 0; !status && i < PyTuple_GET_SIZE(flags); ++i) {
    const char* flag = PyUnicode_AsUTF8(PyTuple_GET_ITEM(flags, i));
    if (!flag) {
      PyBuffer_Release(&source);
      Py_DECREF(flags);
      return NULL;
    }
    bool consumed = false;
    status = kiln_compiler_options_parse_flag(&options, flag, &consumed);
    if (!status && !consumed) {
      status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                                "unknown compiler flag '%s'", flag);
    }
  }
  if (status) {
    PyBuffer_Release(&source);
    Py_DECREF(flags);
    return kiln_py_compiler_raise(status, NULL);
  }
  // Diagnostics and dumps (--mlir-print-ir-*, --timing) go to one memory
  // stream, returned with the error or dropped on success.
  char* log = NULL;
  size_t log_size = 0;
  FILE* log_stream = open_memstream(&log, &log_size);
  if (!log_stream) {
    PyBuffer_Release(&source);
    Py_DECREF(flags);
    return PyErr_SetFromErrno(PyExc_OSError);
  }
  options.diagnostic_stream = log_stream;
  options.dump_stream = log_stream;
  uint8_t* bytes = NULL;
  size_t length = 0;
  kiln_allocator_t allocator = kiln_allocator_system();
  PyThreadState* thread = PyEval_SaveThread();
  status = kiln_compiler_compile_buffer(
      &options, filename, (const char*)source.buf, (size_t)source.len,
      allocator, &bytes, &length);
  PyEval_RestoreThread(thread);
  PyBuffer_Release(&source);
  Py_DECREF(flags);
  fclose(log_stream);
  PyObject* result = NULL;
  if (status) {
    kiln_py_compiler_raise(status, log);
  } else {
    result = Py_BuildValue("(y#s)", (const char*)bytes, (Py_ssize_t)length,
                           log ? log : "");
  }
  kiln_allocator_free(allocator, bytes);
  free(log);  // open_memstream's buffer is malloc'd
  return result;
}

static PyMethodDef kiln_py_compiler_methods[] = {
    {"compile", kiln_py_compile, METH_VARARGS,
     "compile(source, filename, flags) -> (bytes, log)"},
    {NULL},
};

static struct PyModuleDef kiln_py_compiler_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kiln._compiler",
    .m_doc = "kiln's compiler driver (use kiln.compiler).",
    .m_size = -1,
    .m_methods = kiln_py_compiler_methods,
};

PyMODINIT_FUNC PyInit__compiler(void) {
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
