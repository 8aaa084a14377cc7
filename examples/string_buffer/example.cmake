# The bug lives in a small library (sbuf.c); the test program is shared by
# the buggy and the fixed build, only the library is fixed.
racegate_example(string_buffer
  SOURCES string_buffer/string_buffer.c string_buffer/sbuf.c
  FIXED_SOURCES string_buffer/string_buffer.c string_buffer/fixed/sbuf.c)
