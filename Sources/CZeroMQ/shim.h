#ifndef TRELLIS_CZEROMQ_SHIM_H
#define TRELLIS_CZEROMQ_SHIM_H

/* libzmq, and nothing else: the OS calls the I/O loops need are CPlatform's. */
#include <zmq.h>

#endif
