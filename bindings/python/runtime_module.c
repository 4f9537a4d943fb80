// kiln._runtime: the CPython extension under kiln.runtime (runtime.py holds
// the iree.runtime-shaped API; this file holds what needs C).
//
//   Module(data)               a validated module image; keeps |data| (any
//                              object with the buffer protocol) alive
//   Session(uri, workers, native)
//     .load(module)            links the module after the loaded ones
//                              (borrowed image); returns its index
//     .lookup(name)            "module.function" or a bare name ->
//                              (module index, ordinal, signature, is_async)
//     .invoke(index, ordinal, args)  args: BufferView | int | float |
//                              (array, element_type); returns a tuple
//     .invoke(index, ordinal, args, wait_fence=None, signal_fence=None)
//                              a coarse-fences function with no fences
//                              runs to completion (a signal fence is made
//                              and waited on); with a signal fence it
//                              returns once the work is scheduled
//     .create_fence()          a Fence on a new semaphore of the device
//   Fence                      a HAL fence: .wait(timeout_s=None),
//                              .signal(), .reached
//   BufferView                 a HAL buffer view: shape, element_type,
//                              element_type_name, the buffer protocol
//   KilnError                  every kiln status, "CODE: message"
//
// Threading: the GIL is released while kiln runs a call (the task workers
// may release wrapped numpy memory, which takes the GIL) and a per-session
// lock serializes calls on one session. Everything else holds the GIL.
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdint.h>
#include <string.h>

#include "runtime/base/time.h"
#include "runtime/session/session.h"

static PyObject* kiln_py_error;  // kiln._runtime.KilnError

// Raises KilnError from |status| (consumed); returns NULL for `return`.
static PyObject* kiln_py_raise(kiln_status_t status) {
  PyErr_Format(kiln_py_error, "%s: %s",
               kiln_status_code_string(kiln_status_code(status)),
               kiln_status_message(status));
  kiln_status_free(status);
  return NULL;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

typedef struct {
  PyObject_HEAD Py_buffer image;  // the module bytes; holds their exporter
  kiln_vm_instance_t* instance;   // private: only for validation/reflection
  kiln_vm_module_t* module;       // borrows |image|
} kiln_py_module_t;

static void kiln_py_module_dealloc(kiln_py_module_t* self) {
  kiln_ref_release(self->module);
  if (self->instance) kiln_vm_instance_release(self->instance);
  if (self->image.obj) PyBuffer_Release(&self->image);
  Py_TYPE(self)->tp_free((PyObject*)self);
}

static int kiln_py_module_init(kiln_py_module_t* self, PyObject* args,
                               PyObject* kwargs) {
  PyObject* data = NULL;
  static char* keywords[] = {"data", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O", keywords, &data)) {
    return -1;
  }
  if (self->module) {
    PyErr_SetString(PyExc_RuntimeError, "Module is already initialized");
    return -1;
  }
  if (PyObject_GetBuffer(data, &self->image, PyBUF_C_CONTIGUOUS) != 0) {
    return -1;
  }
  kiln_status_t status =
      kiln_vm_instance_create(kiln_allocator_system(), &self->instance);
  if (!status) {
    // Borrowed: the Py_buffer keeps the bytes alive and unchanged as long
    // as this object, and sessions loading it hold this object.
    status = kiln_vm_bytecode_module_load_memory(
        self->instance, self->image.buf, (size_t)self->image.len,
        KILN_VM_BYTECODE_LOAD_FLAG_BORROW, kiln_allocator_system(),
        &self->module);
  }
  if (status) {
    kiln_py_raise(status);
    return -1;
  }
  return 0;
}

// Objects made with __new__ alone hold nothing: refuse them.
static bool kiln_py_check_initialized(const void* handle, const char* type) {
  if (handle) return true;
  PyErr_Format(PyExc_RuntimeError, "%s is not initialized", type);
  return false;
}

static PyObject* kiln_py_module_name(kiln_py_module_t* self, void* closure) {
  if (!kiln_py_check_initialized(self->module, "Module")) return NULL;
  kiln_string_view_t name = kiln_vm_module_name(self->module);
  return PyUnicode_FromStringAndSize(name.data, (Py_ssize_t)name.size);
}

static PyObject* kiln_py_module_function_names(kiln_py_module_t* self,
                                               void* closure) {
  if (!kiln_py_check_initialized(self->module, "Module")) return NULL;
  size_t count = kiln_vm_module_function_count(self->module,
                                               KILN_VM_FUNCTION_LINKAGE_EXPORT);
  PyObject* names = PyList_New(0);
  for (size_t i = 0; names && i < count; ++i) {
    kiln_vm_function_t function;
    kiln_status_t status = kiln_vm_module_function_at(
        self->module, KILN_VM_FUNCTION_LINKAGE_EXPORT, (uint32_t)i, &function);
    if (status) {
      Py_DECREF(names);
      return kiln_py_raise(status);
    }
    kiln_string_view_t name = kiln_vm_function_name(&function);
    PyObject* item =
        PyUnicode_FromStringAndSize(name.data, (Py_ssize_t)name.size);
    if (!item || PyList_Append(names, item) != 0) Py_CLEAR(names);
    Py_XDECREF(item);
  }
  return names;
}

static PyGetSetDef kiln_py_module_getset[] = {
    {"name", (getter)kiln_py_module_name, NULL, "the module's name", NULL},
    {"function_names", (getter)kiln_py_module_function_names, NULL,
     "names of the exported functions", NULL},
    {0},
};

static PyTypeObject kiln_py_module_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln._runtime.Module",
    .tp_basicsize = sizeof(kiln_py_module_t),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A validated kiln module image (.kmod bytes).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)kiln_py_module_init,
    .tp_dealloc = (destructor)kiln_py_module_dealloc,
    .tp_getset = kiln_py_module_getset,
};

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

typedef struct {
  PyObject_HEAD kiln_runtime_session_t* session;
  PyThread_type_lock lock;  // one call or load at a time on the session
  PyObject* modules;        // list of the loaded kiln_py_module_t
} kiln_py_session_t;

static void kiln_py_session_dealloc(kiln_py_session_t* self) {
  if (self->session) {
    // Releasing waits for submitted work, whose completion may release
    // wrapped numpy memory (which takes the GIL).
    PyThreadState* thread = PyEval_SaveThread();
    kiln_runtime_session_release(self->session);
    PyEval_RestoreThread(thread);
  }
  if (self->lock) PyThread_free_lock(self->lock);
  Py_XDECREF(self->modules);
  Py_TYPE(self)->tp_free((PyObject*)self);
}

static int kiln_py_session_init(kiln_py_session_t* self, PyObject* args,
                                PyObject* kwargs) {
  const char* uri = "local-task";
  unsigned int workers = 0;
  int allow_native = 0;
  static char* keywords[] = {"device_uri", "worker_count",
                             "allow_native_executables", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|sIp", keywords, &uri,
                                   &workers, &allow_native)) {
    return -1;
  }
  if (self->session) {
    PyErr_SetString(PyExc_RuntimeError, "Session is already initialized");
    return -1;
  }
  self->lock = PyThread_allocate_lock();
  self->modules = PyList_New(0);
  if (!self->lock || !self->modules) {
    PyErr_NoMemory();
    return -1;
  }
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = uri;
  options.device_params.task_worker_count = workers;
  options.device_params.allow_native_executables = allow_native != 0;
  kiln_status_t status = kiln_runtime_session_create(
      &options, kiln_allocator_system(), &self->session);
  if (status) {
    kiln_py_raise(status);
    return -1;
  }
  return 0;
}

static PyObject* kiln_py_session_load(kiln_py_session_t* self, PyObject* arg) {
  if (!PyObject_TypeCheck(arg, &kiln_py_module_type) ||
      !((kiln_py_module_t*)arg)->module) {
    PyErr_SetString(PyExc_TypeError, "load() expects a kiln._runtime.Module");
    return NULL;
  }
  kiln_py_module_t* module = (kiln_py_module_t*)arg;
  // Relinking replaces the context that calls use: not during a call.
  kiln_status_t status;
  PyThreadState* thread = PyEval_SaveThread();
  PyThread_acquire_lock(self->lock, WAIT_LOCK);
  status = kiln_runtime_session_load_module_memory(
      self->session, module->image.buf, (size_t)module->image.len,
      KILN_VM_BYTECODE_LOAD_FLAG_BORROW);
  PyThread_release_lock(self->lock);
  PyEval_RestoreThread(thread);
  if (status) return kiln_py_raise(status);
  // The session borrows the module's bytes: hold the module.
  if (PyList_Append(self->modules, arg) != 0) return NULL;
  return PyLong_FromSsize_t(PyList_GET_SIZE(self->modules) - 1);
}

static PyObject* kiln_py_session_add_parameters(kiln_py_session_t* self,
                                                PyObject* arg) {
  const char* value = PyUnicode_AsUTF8(arg);
  if (!value) return NULL;
  PyThread_acquire_lock(self->lock, WAIT_LOCK);
  kiln_status_t status =
      kiln_runtime_session_add_parameters(self->session, value);
  PyThread_release_lock(self->lock);
  if (status) return kiln_py_raise(status);
  Py_RETURN_NONE;
}

// The index of |module| among the session's user modules.
static size_t kiln_py_session_module_index(kiln_py_session_t* self,
                                           kiln_vm_module_t* module) {
  size_t count = kiln_runtime_session_module_count(self->session);
  for (size_t i = 0; i < count; ++i) {
    if (kiln_runtime_session_module_at(self->session, i) == module) return i;
  }
  return count;
}

static PyObject* kiln_py_session_lookup(kiln_py_session_t* self,
                                        PyObject* args) {
  const char* name = NULL;
  if (!kiln_py_check_initialized(self->session, "Session")) return NULL;
  if (!PyArg_ParseTuple(args, "s", &name)) return NULL;
  kiln_vm_function_t function;
  kiln_status_t status =
      kiln_runtime_session_lookup_function(self->session, name, &function);
  if (status) return kiln_py_raise(status);
  kiln_string_view_t signature = kiln_vm_function_signature(&function);
  return Py_BuildValue(
      "nIs#N", (Py_ssize_t)kiln_py_session_module_index(self, function.module),
      function.ordinal, signature.data, (Py_ssize_t)signature.size,
      PyBool_FromLong(kiln_runtime_function_is_async(&function)));
}

//===----------------------------------------------------------------------===//
// BufferView
//===----------------------------------------------------------------------===//

typedef struct {
  PyObject_HEAD kiln_hal_buffer_view_t* view;
  PyObject* owner;  // the session the view came from (may be NULL)
  kiln_hal_buffer_mapping_t mapping;  // while exported through the protocol
  Py_ssize_t exports;
  Py_ssize_t shape[16];
  Py_ssize_t strides[16];
} kiln_py_buffer_view_t;

static PyTypeObject kiln_py_buffer_view_type;

static void kiln_py_buffer_view_dealloc(kiln_py_buffer_view_t* self) {
  kiln_hal_buffer_unmap_range(&self->mapping);
  if (self->view) kiln_hal_buffer_view_release(self->view);
  Py_XDECREF(self->owner);
  Py_TYPE(self)->tp_free((PyObject*)self);
}

// Takes ownership of |view|.
static PyObject* kiln_py_buffer_view_wrap(kiln_hal_buffer_view_t* view,
                                          PyObject* owner) {
  kiln_py_buffer_view_t* self =
      PyObject_New(kiln_py_buffer_view_t, &kiln_py_buffer_view_type);
  if (!self) {
    kiln_hal_buffer_view_release(view);
    return NULL;
  }
  self->view = view;
  self->owner = owner;
  Py_XINCREF(owner);
  memset(&self->mapping, 0, sizeof(self->mapping));
  self->exports = 0;
  return (PyObject*)self;
}

// The struct-module format of |type|, or NULL where there is none.
static const char* kiln_py_format_of(kiln_hal_element_type_t type) {
  size_t bytes = kiln_hal_element_byte_size(type);
  switch (kiln_hal_element_numerical_type(type)) {
    case KILN_HAL_NUMERICAL_TYPE_BOOLEAN:
      return bytes == 1 ? "?" : NULL;
    case KILN_HAL_NUMERICAL_TYPE_INTEGER:  // signless reads as signed
    case KILN_HAL_NUMERICAL_TYPE_INTEGER_SIGNED:
      return bytes == 1   ? "b"
             : bytes == 2 ? "h"
             : bytes == 4 ? "i"
             : bytes == 8 ? "q"
                          : NULL;
    case KILN_HAL_NUMERICAL_TYPE_INTEGER_UNSIGNED:
      return bytes == 1   ? "B"
             : bytes == 2 ? "H"
             : bytes == 4 ? "I"
             : bytes == 8 ? "Q"
                          : NULL;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_IEEE:
      return bytes == 2 ? "e" : bytes == 4 ? "f" : bytes == 8 ? "d" : NULL;
    case KILN_HAL_NUMERICAL_TYPE_FLOAT_COMPLEX:
      return bytes == 8 ? "Zf" : bytes == 16 ? "Zd" : NULL;
    default:
      return NULL;
  }
}

static int kiln_py_buffer_view_getbuffer(kiln_py_buffer_view_t* self,
                                         Py_buffer* out, int flags) {
  kiln_hal_element_type_t type = kiln_hal_buffer_view_element_type(self->view);
  const char* format = kiln_py_format_of(type);
  size_t rank = kiln_hal_buffer_view_shape_rank(self->view);
  if (!format || rank > 16) {
    char name[32];
    kiln_hal_element_type_format(type, name, sizeof(name));
    PyErr_Format(PyExc_BufferError,
                 "a %s buffer view of rank %zu has no host array form", name,
                 rank);
    return -1;
  }
  kiln_hal_buffer_t* buffer = kiln_hal_buffer_view_buffer(self->view);
  bool writable = (kiln_hal_buffer_allowed_access(buffer) &
                   KILN_HAL_MEMORY_ACCESS_WRITE) != 0;
  if ((flags & PyBUF_WRITABLE) && !writable) {
    PyErr_SetString(PyExc_BufferError, "the buffer view is read-only");
    return -1;
  }
  if (self->exports == 0) {
    // Host-visible memory (every kiln device): the array views it in place.
    kiln_status_t status = kiln_hal_buffer_map_range(
        buffer,
        writable ? KILN_HAL_MEMORY_ACCESS_READ | KILN_HAL_MEMORY_ACCESS_WRITE
                 : KILN_HAL_MEMORY_ACCESS_READ,
        kiln_hal_buffer_view_byte_offset(self->view),
        kiln_hal_buffer_view_byte_length(self->view), &self->mapping);
    if (status) {
      kiln_py_raise(status);
      return -1;
    }
  }
  size_t item = kiln_hal_element_byte_size(type);
  const kiln_hal_dim_t* dims = kiln_hal_buffer_view_shape_dims(self->view);
  Py_ssize_t stride = (Py_ssize_t)item;
  for (size_t i = rank; i-- > 0;) {
    self->shape[i] = (Py_ssize_t)dims[i];
    self->strides[i] = stride;
    stride *= (Py_ssize_t)dims[i];
  }
  out->buf = self->mapping.contents;
  out->obj = (PyObject*)self;
  Py_INCREF(self);
  out->len = (Py_ssize_t)kiln_hal_buffer_view_byte_length(self->view);
  out->readonly = !writable;
  out->itemsize = (Py_ssize_t)item;
  out->format = (flags & PyBUF_FORMAT) ? (char*)format : NULL;
  out->ndim = (int)rank;
  out->shape = (flags & PyBUF_ND) ? self->shape : NULL;
  out->strides = (flags & PyBUF_STRIDES) ? self->strides : NULL;
  out->suboffsets = NULL;
  out->internal = NULL;
  ++self->exports;
  return 0;
}

static void kiln_py_buffer_view_releasebuffer(kiln_py_buffer_view_t* self,
                                              Py_buffer* view) {
  if (--self->exports == 0) kiln_hal_buffer_unmap_range(&self->mapping);
}

static PyBufferProcs kiln_py_buffer_view_as_buffer = {
    (getbufferproc)kiln_py_buffer_view_getbuffer,
    (releasebufferproc)kiln_py_buffer_view_releasebuffer,
};

static PyObject* kiln_py_buffer_view_shape(kiln_py_buffer_view_t* self,
                                           void* closure) {
  size_t rank = kiln_hal_buffer_view_shape_rank(self->view);
  const kiln_hal_dim_t* dims = kiln_hal_buffer_view_shape_dims(self->view);
  PyObject* shape = PyTuple_New((Py_ssize_t)rank);
  for (size_t i = 0; shape && i < rank; ++i) {
    PyObject* dim = PyLong_FromUnsignedLongLong((unsigned long long)dims[i]);
    if (!dim) {
      Py_CLEAR(shape);
      break;
    }
    PyTuple_SET_ITEM(shape, (Py_ssize_t)i, dim);
  }
  return shape;
}

static PyObject* kiln_py_buffer_view_element_type(kiln_py_buffer_view_t* self,
                                                  void* closure) {
  return PyLong_FromUnsignedLong(
      (unsigned long)kiln_hal_buffer_view_element_type(self->view));
}

static PyObject* kiln_py_buffer_view_element_type_name(
    kiln_py_buffer_view_t* self, void* closure) {
  char name[32];
  kiln_hal_element_type_format(kiln_hal_buffer_view_element_type(self->view),
                               name, sizeof(name));
  return PyUnicode_FromString(name);
}

static PyGetSetDef kiln_py_buffer_view_getset[] = {
    {"shape", (getter)kiln_py_buffer_view_shape, NULL, "dimensions", NULL},
    {"element_type", (getter)kiln_py_buffer_view_element_type, NULL,
     "HAL element type code", NULL},
    {"element_type_name", (getter)kiln_py_buffer_view_element_type_name, NULL,
     "element type as IREE prints it (f32, i32, ...)", NULL},
    {0},
};

static PyTypeObject kiln_py_buffer_view_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln._runtime.BufferView",
    .tp_basicsize = sizeof(kiln_py_buffer_view_t),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A HAL buffer view; its bytes through the buffer protocol.",
    .tp_dealloc = (destructor)kiln_py_buffer_view_dealloc,
    .tp_as_buffer = &kiln_py_buffer_view_as_buffer,
    .tp_getset = kiln_py_buffer_view_getset,
};

//===----------------------------------------------------------------------===//
// Arguments and results
//===----------------------------------------------------------------------===//

// Wrapped numpy memory: the Py_buffer holds the array until kiln drops the
// last reference to the HAL buffer, possibly on a task worker thread.
static void kiln_py_release_wrapped(void* user_data, void* data,
                                    uint64_t size) {
  PyGILState_STATE gil = PyGILState_Ensure();
  PyBuffer_Release((Py_buffer*)user_data);
  PyMem_RawFree(user_data);
  PyGILState_Release(gil);
}

// A buffer view over |array| (C-contiguous, the buffer protocol) with
// |element_type|: in place when its base is aligned as kiln's generated
// code assumes, else copied into a device buffer.
static kiln_status_t kiln_py_array_to_view(kiln_py_session_t* self,
                                           PyObject* array,
                                           kiln_hal_element_type_t type,
                                           kiln_hal_buffer_view_t** out_view) {
  Py_buffer* buf = PyMem_RawMalloc(sizeof(*buf));
  if (!buf)
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "no memory");
  if (PyObject_GetBuffer(array, buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
    PyMem_RawFree(buf);
    PyErr_Clear();
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "argument is not a C-contiguous array");
  }
  kiln_status_t status = kiln_ok_status();
  kiln_hal_dim_t dims[16];
  if (buf->ndim > 16) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "arrays of rank %d are not supported (max 16)",
                              buf->ndim);
  } else if ((size_t)buf->itemsize != kiln_hal_element_byte_size(type)) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "array items are %zd bytes, element type needs "
                              "%zu",
                              buf->itemsize, kiln_hal_element_byte_size(type));
  }
  for (int i = 0; !status && i < buf->ndim; ++i) {
    dims[i] = (kiln_hal_dim_t)buf->shape[i];
  }
  kiln_hal_buffer_t* buffer = NULL;
  bool wrapped = false;
  if (!status && buf->len > 0 &&
      ((uintptr_t)buf->buf % KILN_HAL_HEAP_BUFFER_ALIGNMENT) == 0) {
    // Read-only: kiln never writes arguments, and a module that tried
    // would be refused instead of changing the caller's array.
    kiln_hal_buffer_params_t params = {0};
    params.access = KILN_HAL_MEMORY_ACCESS_READ;
    kiln_hal_buffer_release_callback_t release = {kiln_py_release_wrapped, buf};
    status = kiln_hal_buffer_wrap(&params, buf->buf, (uint64_t)buf->len,
                                  release, kiln_allocator_system(), &buffer);
    wrapped = !status;
  } else if (!status) {
    status = kiln_hal_allocator_allocate_buffer(
        kiln_hal_device_allocator(kiln_runtime_session_device(self->session)),
        NULL, (uint64_t)buf->len, &buffer);
    if (!status && buf->len > 0) {
      status =
          kiln_hal_buffer_map_write(buffer, 0, buf->buf, (uint64_t)buf->len);
    }
  }
  size_t rank = (size_t)buf->ndim;
  if (!wrapped) {  // copied (or failed): the array is no longer needed
    PyBuffer_Release(buf);
    PyMem_RawFree(buf);
  }
  if (!status) {
    status = kiln_hal_buffer_view_create(buffer, rank, dims, type,
                                         KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR,
                                         kiln_allocator_system(), out_view);
  }
  if (buffer) kiln_hal_buffer_release(buffer);
  return status;
}

// Converts argument |index| (|item|) for signature character |expected|
// (0 past the signature; kiln then reports the count).
static kiln_status_t kiln_py_convert_arg(kiln_py_session_t* self,
                                         PyObject* item, size_t index,
                                         char expected, kiln_vm_value_t* out) {
  if (PyObject_TypeCheck(item, &kiln_py_buffer_view_type)) {
    *out = kiln_vm_value_make_ref_retain(((kiln_py_buffer_view_t*)item)->view);
    return kiln_ok_status();
  }
  if (PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 2) {
    unsigned long type = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(item, 1));
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "argument %zu: bad element type", index);
    }
    kiln_hal_buffer_view_t* view = NULL;
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_py_array_to_view(self, PyTuple_GET_ITEM(item, 0),
                              (kiln_hal_element_type_t)type, &view),
        "argument %zu", index);
    *out = kiln_vm_value_make_ref(view);
    return kiln_ok_status();
  }
  if (PyLong_Check(item) && expected != 'f' && expected != 'F') {
    long long value = PyLong_AsLongLong(item);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                              "argument %zu: integer does not fit in 64 bits",
                              index);
    }
    if (expected == 'I') {
      *out = kiln_vm_value_make_i64(value);
    } else {
      if (value < INT32_MIN || value > INT32_MAX) {
        return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                                "argument %zu: %lld does not fit in i32", index,
                                value);
      }
      *out = kiln_vm_value_make_i32((int32_t)value);
    }
    return kiln_ok_status();
  }
  if (PyFloat_Check(item) || PyLong_Check(item)) {
    double value = PyFloat_AsDouble(item);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "argument %zu: not a number", index);
    }
    *out = expected == 'F' ? kiln_vm_value_make_f64(value)
                           : kiln_vm_value_make_f32((float)value);
    return kiln_ok_status();
  }
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "argument %zu: unsupported Python type '%s'", index,
                          Py_TYPE(item)->tp_name);
}

static PyObject* kiln_py_convert_result(kiln_py_session_t* self,
                                        kiln_vm_value_t* value, size_t index) {
  switch (value->type) {
    case KILN_VM_VALUE_TYPE_I32:
      return PyLong_FromLong(value->i32);
    case KILN_VM_VALUE_TYPE_I64:
      return PyLong_FromLongLong(value->i64);
    case KILN_VM_VALUE_TYPE_F32:
      return PyFloat_FromDouble(value->f32);
    case KILN_VM_VALUE_TYPE_F64:
      return PyFloat_FromDouble(value->f64);
    case KILN_VM_VALUE_TYPE_REF:
      if (!value->ref) Py_RETURN_NONE;
      if (kiln_ref_isa(value->ref, &kiln_hal_buffer_view_type)) {
        kiln_hal_buffer_view_t* view = (kiln_hal_buffer_view_t*)value->ref;
        *value = kiln_vm_value_make_none();  // ownership moves to Python
        return kiln_py_buffer_view_wrap(view, (PyObject*)self);
      }
      break;
    default:
      break;
  }
  PyErr_Format(kiln_py_error,
               "UNIMPLEMENTED: result %zu is a %s, which the Python bindings "
               "do not convert",
               index, kiln_vm_value_type_name(value->type));
  return NULL;
}

//===----------------------------------------------------------------------===//
// Fence
//===----------------------------------------------------------------------===//

typedef struct {
  PyObject_HEAD kiln_hal_fence_t* fence;
  PyObject* session;  // keeps the device (and its semaphores' owner) alive
} kiln_py_fence_t;

static void kiln_py_fence_dealloc(kiln_py_fence_t* self) {
  if (self->fence) kiln_hal_fence_release(self->fence);
  Py_XDECREF(self->session);
  Py_TYPE(self)->tp_free((PyObject*)self);
}

static PyTypeObject kiln_py_fence_type;

// Takes ownership of |fence|.
static PyObject* kiln_py_fence_wrap(kiln_hal_fence_t* fence,
                                    PyObject* session) {
  kiln_py_fence_t* self = PyObject_New(kiln_py_fence_t, &kiln_py_fence_type);
  if (!self) {
    kiln_hal_fence_release(fence);
    return NULL;
  }
  self->fence = fence;
  self->session = Py_NewRef(session);
  return (PyObject*)self;
}

static PyObject* kiln_py_fence_wait(kiln_py_fence_t* self, PyObject* args,
                                    PyObject* kwargs) {
  PyObject* timeout = Py_None;
  static char* keywords[] = {"timeout_s", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", keywords, &timeout)) {
    return NULL;
  }
  int64_t deadline_ns = KILN_HAL_INFINITE_DEADLINE;
  if (timeout != Py_None) {
    double seconds = PyFloat_AsDouble(timeout);
    if (seconds == -1.0 && PyErr_Occurred()) return NULL;
    if (seconds < 0) seconds = 0;
    deadline_ns = kiln_time_now_ns() + (int64_t)(seconds * 1e9);
  }
  PyThreadState* thread = PyEval_SaveThread();
  kiln_status_t status = kiln_hal_fence_wait(self->fence, deadline_ns);
  PyEval_RestoreThread(thread);
  if (status) return kiln_py_raise(status);
  Py_RETURN_NONE;
}

static PyObject* kiln_py_fence_signal(kiln_py_fence_t* self, PyObject* unused) {
  kiln_status_t status = kiln_hal_fence_signal(self->fence);
  if (status) return kiln_py_raise(status);
  Py_RETURN_NONE;
}

static PyObject* kiln_py_fence_reached(kiln_py_fence_t* self, void* closure) {
  bool reached = false;
  kiln_status_t status = kiln_hal_fence_query(self->fence, &reached);
  if (status) return kiln_py_raise(status);
  return PyBool_FromLong(reached);
}

static PyMethodDef kiln_py_fence_methods[] = {
    {"wait", (PyCFunction)(void (*)(void))kiln_py_fence_wait,
     METH_VARARGS | METH_KEYWORDS,
     "wait(timeout_s=None): until reached; KilnError DEADLINE_EXCEEDED past "
     "the timeout, or the failure of the work that was to signal it"},
    {"signal", (PyCFunction)kiln_py_fence_signal, METH_NOARGS,
     "signal(): marks every timepoint of the fence reached"},
    {0},
};

static PyGetSetDef kiln_py_fence_getset[] = {
    {"reached", (getter)kiln_py_fence_reached, NULL,
     "whether every timepoint is reached (raises if the work failed)", NULL},
    {0},
};

static PyTypeObject kiln_py_fence_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln._runtime.Fence",
    .tp_basicsize = sizeof(kiln_py_fence_t),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A HAL fence (made by Session.create_fence or an async call).",
    .tp_dealloc = (destructor)kiln_py_fence_dealloc,
    .tp_methods = kiln_py_fence_methods,
    .tp_getset = kiln_py_fence_getset,
};

// A fence at value 1 of a new semaphore of |session|'s device.
static kiln_status_t kiln_py_session_make_fence(kiln_runtime_session_t* session,
                                                kiln_hal_fence_t** out_fence) {
  return kiln_hal_device_create_fence(kiln_runtime_session_device(session),
                                      kiln_runtime_session_allocator(session),
                                      out_fence);
}

static PyObject* kiln_py_session_invoke(kiln_py_session_t* self, PyObject* args,
                                        PyObject* kwargs) {
  Py_ssize_t module_index = 0;
  unsigned int ordinal = 0;
  PyObject* items = NULL;
  PyObject* wait_object = Py_None;
  PyObject* signal_object = Py_None;
  static char* keywords[] = {"", "", "", "wait_fence", "signal_fence", NULL};
  if (!kiln_py_check_initialized(self->session, "Session")) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "nIO!|OO", keywords,
                                   &module_index, &ordinal, &PyTuple_Type,
                                   &items, &wait_object, &signal_object)) {
    return NULL;
  }
  for (int i = 0; i < 2; ++i) {
    PyObject* object = i ? signal_object : wait_object;
    if (object != Py_None && !PyObject_TypeCheck(object, &kiln_py_fence_type)) {
      PyErr_Format(PyExc_TypeError, "%s must be a Fence or None",
                   i ? "signal_fence" : "wait_fence");
      return NULL;
    }
  }
  kiln_vm_module_t* module =
      module_index < 0
          ? NULL
          : kiln_runtime_session_module_at(self->session, (size_t)module_index);
  if (!module) {
    PyErr_SetString(kiln_py_error, "FAILED_PRECONDITION: no such module");
    return NULL;
  }
  kiln_vm_function_t function = {module, ordinal,
                                 KILN_VM_FUNCTION_LINKAGE_EXPORT};
  kiln_vm_signature_t signature;
  kiln_status_t status = kiln_vm_signature_parse(
      kiln_vm_function_signature(&function), &signature);
  if (status) return kiln_py_raise(status);
  bool is_async = kiln_runtime_function_is_async(&function);
  if (!is_async && (wait_object != Py_None || signal_object != Py_None)) {
    PyErr_SetString(kiln_py_error,
                    "INVALID_ARGUMENT: fences are given, but the function "
                    "does not use the coarse-fences ABI");
    return NULL;
  }
  kiln_hal_fence_t* wait_fence =
      wait_object == Py_None ? NULL : ((kiln_py_fence_t*)wait_object)->fence;
  kiln_hal_fence_t* signal_fence =
      signal_object == Py_None ? NULL
                               : ((kiln_py_fence_t*)signal_object)->fence;
  // Without a signal fence an async function runs to completion here.
  kiln_hal_fence_t* own_fence = NULL;
  if (is_async && !signal_fence) {
    status = kiln_py_session_make_fence(self->session, &own_fence);
    if (status) return kiln_py_raise(status);
    signal_fence = own_fence;
  }
  // The fences are the signature's last two arguments, not the caller's.
  if (is_async && signature.args.size >= 2) signature.args.size -= 2;

  size_t arg_count = (size_t)PyTuple_GET_SIZE(items);
  size_t result_count = signature.results.size;
  kiln_vm_value_t* values =
      PyMem_Calloc(arg_count + result_count + 1, sizeof(kiln_vm_value_t));
  if (!values) {
    if (own_fence) kiln_hal_fence_release(own_fence);
    return PyErr_NoMemory();
  }
  kiln_vm_value_t* results = values + arg_count;
  for (size_t i = 0; !status && i < arg_count; ++i) {
    char expected = i < signature.args.size ? signature.args.data[i] : 0;
    status = kiln_py_convert_arg(self, PyTuple_GET_ITEM(items, i), i, expected,
                                 &values[i]);
  }
  if (!status) {
    PyThreadState* thread = PyEval_SaveThread();
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    if (is_async) {
      status = kiln_runtime_session_call_async(
          self->session, function, values, arg_count, wait_fence, signal_fence,
          results, result_count);
    } else {
      status = kiln_runtime_session_call(self->session, function, values,
                                         arg_count, results, result_count);
    }
    PyThread_release_lock(self->lock);
    if (!status && own_fence) {
      status = kiln_hal_fence_wait(own_fence, KILN_HAL_INFINITE_DEADLINE);
    }
    PyEval_RestoreThread(thread);
  }
  if (own_fence) kiln_hal_fence_release(own_fence);
  PyObject* out = NULL;
  if (status) {
    kiln_py_raise(status);
  } else {
    out = PyTuple_New((Py_ssize_t)result_count);
    for (size_t i = 0; out && i < result_count; ++i) {
      PyObject* item = kiln_py_convert_result(self, &results[i], i);
      if (!item) {
        Py_CLEAR(out);
        break;
      }
      PyTuple_SET_ITEM(out, (Py_ssize_t)i, item);
    }
  }
  kiln_vm_values_release(values, arg_count + result_count);
  PyMem_Free(values);
  return out;
}

static PyObject* kiln_py_session_device_uri_bytes_in_use(
    kiln_py_session_t* self, PyObject* unused) {
  if (!kiln_py_check_initialized(self->session, "Session")) return NULL;
  return PyLong_FromUnsignedLongLong(
      kiln_runtime_session_bytes_in_use(self->session));
}

static PyObject* kiln_py_session_create_fence(kiln_py_session_t* self,
                                              PyObject* unused) {
  if (!kiln_py_check_initialized(self->session, "Session")) return NULL;
  kiln_hal_fence_t* fence = NULL;
  kiln_status_t status = kiln_py_session_make_fence(self->session, &fence);
  if (status) return kiln_py_raise(status);
  return kiln_py_fence_wrap(fence, (PyObject*)self);
}

static PyMethodDef kiln_py_session_methods[] = {
    {"load", (PyCFunction)kiln_py_session_load, METH_O,
     "load(module) -> index: links a Module after the loaded ones"},
    {"add_parameters", (PyCFunction)kiln_py_session_add_parameters, METH_O,
     "add_parameters('scope=path' or 'path'): a parameter file (.irpa, "
     ".safetensors) for the modules loaded after it"},
    {"lookup", (PyCFunction)kiln_py_session_lookup, METH_VARARGS,
     "lookup(name) -> (module index, ordinal, signature, is_async)"},
    {"invoke", (PyCFunction)(void (*)(void))kiln_py_session_invoke,
     METH_VARARGS | METH_KEYWORDS,
     "invoke(module index, ordinal, args, wait_fence=None, signal_fence=None)"
     " -> tuple of results"},
    {"create_fence", (PyCFunction)kiln_py_session_create_fence, METH_NOARGS,
     "create_fence() -> Fence on a new semaphore of the session's device"},
    {"bytes_in_use", (PyCFunction)kiln_py_session_device_uri_bytes_in_use,
     METH_NOARGS, "bytes live through the session's allocator"},
    {0},
};

static PyTypeObject kiln_py_session_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kiln._runtime.Session",
    .tp_basicsize = sizeof(kiln_py_session_t),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A kiln runtime session: one device and its modules.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)kiln_py_session_init,
    .tp_dealloc = (destructor)kiln_py_session_dealloc,
    .tp_methods = kiln_py_session_methods,
};

//===----------------------------------------------------------------------===//
// Module definition
//===----------------------------------------------------------------------===//

// parse_element_type("f32") -> the HAL code (IREE's short names).
static PyObject* kiln_py_parse_element_type(PyObject* unused, PyObject* args) {
  const char* text = NULL;
  Py_ssize_t length = 0;
  if (!PyArg_ParseTuple(args, "s#", &text, &length)) return NULL;
  kiln_hal_element_type_t type;
  kiln_status_t status = kiln_hal_element_type_parse(
      kiln_make_string_view(text, (size_t)length), &type);
  if (status) return kiln_py_raise(status);
  return PyLong_FromUnsignedLong((unsigned long)type);
}

static PyMethodDef kiln_py_methods[] = {
    {"parse_element_type", kiln_py_parse_element_type, METH_VARARGS,
     "parse_element_type(name) -> HAL element type code"},
    {0},
};

static struct PyModuleDef kiln_py_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kiln._runtime",
    .m_doc = "kiln's runtime (use kiln.runtime).",
    .m_size = -1,
    .m_methods = kiln_py_methods,
};

static int kiln_py_add_type(PyObject* module, const char* name,
                            PyTypeObject* type) {
  if (PyType_Ready(type) < 0) return -1;
  Py_INCREF(type);
  if (PyModule_AddObject(module, name, (PyObject*)type) < 0) {
    Py_DECREF(type);
    return -1;
  }
  return 0;
}

PyMODINIT_FUNC PyInit__runtime(void) {
  PyObject* module = PyModule_Create(&kiln_py_module_def);
  if (!module) return NULL;
  kiln_py_error = PyErr_NewExceptionWithDoc(
      "kiln._runtime.KilnError",
      "A kiln runtime error; the message is kiln's (\"CODE: message\").",
      PyExc_RuntimeError, NULL);
  if (!kiln_py_error ||
      PyModule_AddObject(module, "KilnError", Py_NewRef(kiln_py_error)) < 0 ||
      kiln_py_add_type(module, "Module", &kiln_py_module_type) < 0 ||
      kiln_py_add_type(module, "Session", &kiln_py_session_type) < 0 ||
      kiln_py_add_type(module, "BufferView", &kiln_py_buffer_view_type) < 0 ||
      kiln_py_add_type(module, "Fence", &kiln_py_fence_type) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
