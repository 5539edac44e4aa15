/* sdbus-cpp.cpp: D-Bus method calls through sdbus-c++, the C++ binding
 * of sd-bus, the way an application uses it.
 *
 * Client: a connection from the bus address
 * (sdbus::createSessionBusConnectionWithAddress), a proxy
 * (sdbus::createProxy), and for every call createMethodCall(), `<<` of
 * the payload and callMethod(), which without an event loop thread sends
 * the call and waits for its reply on the calling thread (sd_bus_call
 * beneath).  A one-way send marks the call dontExpectReply(); callMethod()
 * then only queues it, so the stream is written out (flush() below: poll
 * for POLLOUT while sd-bus says it wants it, and processPendingRequest())
 * after every message, which also bounds the queue.
 *
 * Server: an object (sdbus::createObject) whose methods are registered
 * with registerMethod() and a handler that keeps the sdbus::MethodCall;
 * recv() drives the connection itself, the way getEventLoopPollData()
 * documents for an application's own loop (poll, processPendingRequest),
 * until a call is there: no event loop thread runs behind the runner's
 * back.  send() answers with createReply(), `<<` and send().
 *
 * Payloads: std::string as `s`, std::vector<uint8_t> as `ay`.  How the
 * library appends a vector depends on its version, fixed at build time
 * (IPCLAB_SDBUSCPP_ARRAY, from pkg-config): before 1.3.0 (PR #340) one
 * sd_bus_message_append_basic() per element, and reading one back with
 * `>>` one sd_bus_message_read_basic() per element; from 1.3.0 one array.
 * So the cell's marshal= is the library's, not a choice: before 1.3.0
 * marshal=append-per-element (every receiver takes the array whole, see
 * below) or per-element (every receiver reads it with `>>`, per element),
 * from 1.3.0 marshal=array; the others are left out (refuses()).
 *
 * append-per-element is seed 004's workload, whose server never read the
 * array.  ipclab's server must know at least its size (and, with
 * verify=true, its bytes, for the checksum): so a receiver takes the
 * array with one sd_bus_message_read_array() on the sd-bus message beneath
 * the sdbus::Message (raw_message()), which returns a pointer into the
 * message and its length without copying or visiting the elements; that
 * is all it does with it.  An echo reply is built as an application
 * would, a std::vector<uint8_t> made from the bytes (or the vector it read).
 *
 * Peer to peer is left out: sdbus-c++ has direct connections only from
 * 1.4.0 (createDirectBusConnection).  The wire protocol is the one
 * libdbus.c describes.
 */
#include <glib.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <poll.h>

#include <sdbus-c++/sdbus-c++.h>
#include <systemd/sd-bus.h>

#include <ipclab/transport.h>
extern "C" {
#include "transport.h"
}
#include "bench-names.h"

namespace {

const char *const kName = BENCH_NAME;
const char *const kPath = BENCH_PATH;
const char *const kIface = BENCH_IFACE;

struct Sdbuscpp {
        std::unique_ptr<sdbus::IConnection> conn;
        std::unique_ptr<sdbus::IObject> object;     /* server */
        std::unique_ptr<sdbus::IProxy> proxy;       /* client */
        std::deque<sdbus::MethodCall> calls;        /* server: not yet taken */
        sdbus::MethodCall request;                  /* server: the call send() answers */
        bool have_request = false;
        sdbus::MethodReply reply;                   /* client: the reply recv() hands out */
        bool have_reply = false;
        /* What a handed-out payload points into, until the next op. */
        sdbus::MethodCall held_call;
        sdbus::MethodReply held_reply;
        std::string held_string;
        std::vector<uint8_t> held_bytes;
};

/* The sd-bus message beneath M: Message keeps it in a protected member,
 * reached through a pointer to member formed in a derived class. */
struct RawMessage : sdbus::Message {
        static sd_bus_message *of(const sdbus::Message &m)
        {
                return static_cast<sd_bus_message *>(m.*(&RawMessage::msg_));
        }
};

/* Does a receiver take byte arrays whole (append-per-element), rather than
 * with the library's `>>`? */
bool takes_whole(const IpclabCell *cell)
{
        return cell->marshal == MARSHAL_APPEND_PER_ELEMENT;
}

const char *reply_signature(const IpclabCell *cell)
{
        if (cell->pattern == PATTERN_CALLRATE || cell->reply == REPLY_EMPTY)
                return "";
        return cell->payload == PAYLOAD_STRING ? "s" : "ay";
}

const char *ack_signature(const IpclabCell *cell)
{
        return cell->payload == PAYLOAD_STRING ? "s" : "ay";
}

const char *request_member(const Endpoint *ep, size_t len)
{
        if (len == 0)
                return "SendEmpty";
        return ep->cell->payload == PAYLOAD_STRING ? "SendString" : "SendBytes";
}

int fail_sdbus(Endpoint *ep, const sdbus::Error &e, const char *what)
{
        return endpoint_fail(ep, 0, "%s: %s (%s)", what, e.getMessage().c_str(), e.getName().c_str());
}

int fail_exception(Endpoint *ep, const std::exception &e, const char *what)
{
        return endpoint_fail(ep, 0, "%s: %s", what, e.what());
}

/* Runs F, turning what sdbus-c++ (or the C++ runtime) throws into -errno
 * and ep->why: no exception leaves this file. */
template <typename F>
int guarded(Endpoint *ep, const char *what, F f)
{
        try {
                return f();
        } catch (const sdbus::Error &e) {
                return fail_sdbus(ep, e, what);
        } catch (const std::exception &e) {
                return fail_exception(ep, e, what);
        }
}

/* Writes out what sd-bus has queued: while it asks for POLLOUT, wait for
 * the socket and let processPendingRequest() write. */
void flush(Sdbuscpp *p)
{
        for (;;) {
                auto pd = p->conn->getEventLoopPollData();
                if (!(pd.events & POLLOUT))
                        return;
                struct pollfd fd = { pd.fd, pd.events, 0 };
                if (poll(&fd, 1, -1) < 0 && errno != EINTR)
                        throw std::system_error(errno, std::generic_category(), "poll");
                p->conn->processPendingRequest();
        }
}

/* Appends the payload: nothing when LEN is 0, else `s` or `ay`.  HELD: the
 * vector or string it was read into, when DATA points into it. */
void append_payload(const Endpoint *ep, const Sdbuscpp *p, sdbus::Message &m, const void *data, size_t len)
{
        if (len == 0)
                return;
        if (ep->cell->payload == PAYLOAD_STRING) {
                m << static_cast<const char *>(data);   /* NUL-terminated: transport.h */
                return;
        }
        if (data == p->held_bytes.data() && len == p->held_bytes.size()) {
                m << p->held_bytes;
                return;
        }
        const uint8_t *b = static_cast<const uint8_t *>(data);
        m << std::vector<uint8_t>(b, b + len);
}

/* Reads the payload of M (no argument, `ay` or `s`) into P's held values
 * or, taking a byte array whole, points into M (which the caller keeps). */
int read_payload(Endpoint *ep, Sdbuscpp *p, sdbus::Message &m, const void **data, size_t *len)
{
        std::string type, contents;

        /* At the end, peekType() gives a type of one NUL character. */
        m.peekType(type, contents);
        if (type.empty() || type[0] == '\0') {
                *data = "";
                *len = 0;
                return 0;
        }
        if (type == "s") {
                p->held_string.clear();
                m >> p->held_string;
                *data = p->held_string.c_str();
                *len = p->held_string.size();
                return 0;
        }
        if (type != "a" || contents != "y")
                return endpoint_fail(ep, EPROTO, "unexpected argument type '%s%s'", type.c_str(), contents.c_str());
        if (takes_whole(ep->cell)) {
                const void *a = nullptr;
                size_t n = 0;
                int r = sd_bus_message_read_array(RawMessage::of(m), 'y', &a, &n);
                if (r < 0)
                        return endpoint_fail(ep, -r, "sd_bus_message_read_array");
                *data = n > 0 ? a : "";
                *len = n;
                return 0;
        }
        p->held_bytes.clear();
        m >> p->held_bytes;
        *data = p->held_bytes.empty() ? static_cast<const void *>("") : p->held_bytes.data();
        *len = p->held_bytes.size();
        return 0;
}

void release_hold(Sdbuscpp *p)
{
        p->held_call = sdbus::MethodCall();
        p->held_reply = sdbus::MethodReply();
}

/* --- open ------------------------------------------------------------- */

void register_methods(const Endpoint *ep, Sdbuscpp *p)
{
        const char *reply = reply_signature(ep->cell);
        auto keep = [p](sdbus::MethodCall call) { p->calls.push_back(std::move(call)); };

        p->object = sdbus::createObject(*p->conn, kPath);
        p->object->registerMethod(kIface, "SendBytes", "ay", reply, keep);
        p->object->registerMethod(kIface, "SendString", "s", reply, keep);
        p->object->registerMethod(kIface, "SendEmpty", "", reply, keep);
        p->object->registerMethod(kIface, "End", "", ack_signature(ep->cell), keep);
        p->object->finishRegistration();
}

int open_endpoint(Endpoint *ep, Role role, Sdbuscpp *p)
{
        if (ep->cell->bus == BUS_P2P)
                return endpoint_fail(ep, ENOTSUP, "sdbus-c++ " IPCLAB_SDBUSCPP_VERSION " has no peer-to-peer connection");
        if (!ep->bus_address)
                return endpoint_fail(ep, EINVAL, "no bus address for bus=%s", bus_name((BusKind) ep->cell->bus));
        p->conn = sdbus::createSessionBusConnectionWithAddress(ep->bus_address);
        if (role == ROLE_SERVER) {
                register_methods(ep, p);
                /* Primary ownership or an error (DBUS_NAME_FLAG_DO_NOT_QUEUE). */
                p->conn->requestName(kName);
        } else {
                p->proxy = sdbus::createProxy(*p->conn, kName, kPath);
                p->proxy->finishRegistration();
        }
        return 0;
}

/* --- server ----------------------------------------------------------- */

int server_recv(Endpoint *ep, Sdbuscpp *p, const void **data, size_t *len)
{
        while (p->calls.empty()) {
                if (p->conn->processPendingRequest())
                        continue;
                auto pd = p->conn->getEventLoopPollData();
                struct pollfd fd = { pd.fd, pd.events, 0 };
                if (poll(&fd, 1, pd.getPollTimeout()) < 0 && errno != EINTR)
                        return endpoint_fail(ep, errno, "poll");
        }
        sdbus::MethodCall call = std::move(p->calls.front());
        p->calls.pop_front();
        if (call.getMemberName() == "End") {
                p->request = std::move(call);
                p->have_request = true;
                return 0;
        }
        int r = read_payload(ep, p, call, data, len);
        if (r < 0)
                return r;
        if (!call.doesntExpectReply()) {
                p->request = call;
                p->have_request = true;
        }
        p->held_call = std::move(call);
        return 1;
}

int server_send(Endpoint *ep, Sdbuscpp *p, const void *data, size_t len)
{
        if (!p->have_request)
                return endpoint_fail(ep, EPROTO, "no request to answer");
        auto reply = p->request.createReply();
        append_payload(ep, p, reply, data, len);
        reply.send();
        flush(p);
        p->request = sdbus::MethodCall();
        p->have_request = false;
        release_hold(p);
        return 0;
}

/* --- client ----------------------------------------------------------- */

int client_send(Endpoint *ep, Sdbuscpp *p, const char *member, const void *data, size_t len, unsigned flags)
{
        if (p->have_reply)
                return endpoint_fail(ep, EPROTO, "the previous reply was not read");
        auto m = p->proxy->createMethodCall(kIface, member);
        append_payload(ep, p, m, data, len);
        release_hold(p);
        if (flags & SEND_NO_REPLY) {
                m.dontExpectReply();
                p->proxy->callMethod(m);
                flush(p);
                return 0;
        }
        /* A call whose reply recv() reads: callMethod() waits for it here. */
        p->reply = p->proxy->callMethod(m, UINT64_MAX);
        p->have_reply = true;
        return 0;
}

int client_recv(Endpoint *ep, Sdbuscpp *p, const void **data, size_t *len)
{
        release_hold(p);
        if (!p->have_reply)
                return endpoint_fail(ep, EPROTO, "no reply is due");
        p->held_reply = std::move(p->reply);
        p->reply = sdbus::MethodReply();
        p->have_reply = false;
        int r = read_payload(ep, p, p->held_reply, data, len);
        return r < 0 ? r : 1;
}

/* --- the ops ---------------------------------------------------------- */

const char *sdbus_cpp_unavailable(void)
{
        return NULL;
}

/* The marshal= value this sdbus-c++ appends std::vector<uint8_t> with, and
 * no peer to peer before 1.4.0. */
const char *sdbus_cpp_refuses(const IpclabCell *cell)
{
        if (cell->bus == BUS_P2P)
                return "sdbus-c++ " IPCLAB_SDBUSCPP_VERSION " has no peer-to-peer connection "
                       "(createDirectBusConnection came in 1.4.0)";
        if (cell->payload != PAYLOAD_BYTES)
                return NULL;
#if IPCLAB_SDBUSCPP_ARRAY
        if (cell->marshal != MARSHAL_ARRAY)
                return "sdbus-c++ " IPCLAB_SDBUSCPP_VERSION " appends a std::vector<uint8_t> as one array "
                       "(marshal=array only)";
#else
        if (cell->marshal == MARSHAL_ARRAY)
                return "sdbus-c++ " IPCLAB_SDBUSCPP_VERSION " appends a std::vector<uint8_t> element by element "
                       "(before 1.3.0): marshal=append-per-element or per-element";
#endif
        return NULL;
}

/* The D-Bus specification caps arrays at 64 MiB (messages at 128 MiB). */
size_t sdbus_cpp_max_size(const IpclabCell *cell)
{
        (void) cell;
        return (size_t) 64 << 20;
}

int sdbus_cpp_open(Endpoint *ep, Role role)
{
        auto *p = new (std::nothrow) Sdbuscpp;

        if (!p)
                return endpoint_fail(ep, ENOMEM, "sdbus-c++ endpoint");
        ep->role = role;
        int r = guarded(ep, role == ROLE_SERVER ? "sdbus-c++ server" : "sdbus-c++ client",
                        [&] { return open_endpoint(ep, role, p); });
        if (r < 0) {
                guarded(ep, "closing", [&] { delete p; return 0; });
                return r;
        }
        ep->priv = p;
        return 0;
}

int sdbus_cpp_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        auto *p = static_cast<Sdbuscpp *>(ep->priv);

        if (ep->role == ROLE_SERVER)
                return guarded(ep, "replying", [&] { return server_send(ep, p, data, len); });
        return guarded(ep, "calling", [&] { return client_send(ep, p, request_member(ep, len), data, len, flags); });
}

int sdbus_cpp_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        auto *p = static_cast<Sdbuscpp *>(ep->priv);

        (void) expect;
        if (ep->role == ROLE_SERVER)
                return guarded(ep, "receiving", [&] { return server_recv(ep, p, data, len); });
        return guarded(ep, "reading the reply", [&] { return client_recv(ep, p, data, len); });
}

int sdbus_cpp_send_end(Endpoint *ep)
{
        auto *p = static_cast<Sdbuscpp *>(ep->priv);

        return guarded(ep, "calling End", [&] { return client_send(ep, p, "End", nullptr, 0, 0); });
}

int sdbus_cpp_call(Endpoint *ep, const void *data, size_t len, const void **reply, size_t *reply_len,
                   size_t expect)
{
        auto *p = static_cast<Sdbuscpp *>(ep->priv);

        (void) expect;
        return guarded(ep, "the call", [&] {
                auto m = p->proxy->createMethodCall(kIface, request_member(ep, len));
                append_payload(ep, p, m, data, len);
                release_hold(p);
                /* UINT64_MAX: no timeout; the runner enforces its own. */
                p->held_reply = p->proxy->callMethod(m, UINT64_MAX);
                int r = read_payload(ep, p, p->held_reply, reply, reply_len);
                return r < 0 ? r : 1;
        });
}

void sdbus_cpp_close(Endpoint *ep)
{
        auto *p = static_cast<Sdbuscpp *>(ep->priv);

        if (!p)
                return;
        /* The ack may still be queued: write it out before the connection
         * goes (sdbus-c++ before 1.3.0 does not flush on its own). */
        guarded(ep, "closing", [&] {
                flush(p);
                return 0;
        });
        delete p;
        ep->priv = nullptr;
}

} // namespace

/* C++17: every field, in the order of ipclab/transport.h. */
extern "C" const Transport transport_sdbus_cpp = {
        IPCLAB_TRANSPORT_ABI_MAJOR,
        IPCLAB_TRANSPORT_ABI_MINOR,
        sizeof(IpclabTransport),
        SDBUSCPP_FLAGS,
        "sdbus-c++",
        "dbus",
        SDBUSCPP_SUMMARY "; this sdbus-c++ " IPCLAB_SDBUSCPP_VERSION " appends std::vector<uint8_t> "
#if IPCLAB_SDBUSCPP_ARRAY
        "as one array (1.3.0 and later)",
#else
        "element by element (before 1.3.0)",
#endif
        nullptr,   /* version: ipclab's */
        sdbus_cpp_unavailable,
        sdbus_cpp_max_size,
        sdbus_cpp_refuses,
        nullptr,   /* prepare */
        sdbus_cpp_open,
        sdbus_cpp_send,
        sdbus_cpp_recv,
        sdbus_cpp_send_end,
        sdbus_cpp_call,
        sdbus_cpp_close,
        nullptr,   /* cleanup */
        nullptr,   /* command */
        nullptr,   /* libraries: meta.ini has sdbus-c++'s version */
};
