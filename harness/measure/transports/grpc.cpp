/* grpc.cpp: gRPC unary calls over a Unix socket, through gRPC C++'s
 * generic API (byte buffers, no generated code), as an application that
 * owns its threads uses gRPC: the asynchronous API, each side driving its
 * own completion queue on the thread that calls the hooks.
 *
 * Server (the runner's server child): a grpc::Server listening on
 * unix:DIR/grpc in the repetition's private directory, with an
 * AsyncGenericService.  recv() asks for the next call (RequestCall) and
 * reads its request; send() answers it (WriteAndFinish with Status::OK),
 * and the next hook collects that call's end before it starts another.
 * Client (the runner's client child): a channel to the same socket and a
 * GenericStub; send() starts one unary call (PrepareUnaryCall, StartCall,
 * Finish) carrying the payload as the request's bytes, recv() waits on
 * the completion queue for its reply.  Every call has a ClientContext of
 * its own, as gRPC requires.  The client's end of stream is a call to
 * another method (/ipclab.Bench/End), whose reply is the server's ack.
 *
 * Payloads: a grpc::ByteBuffer made from one Slice, which copies the
 * bytes; a received buffer of one slice is handed out without a copy
 * (bytes payloads), else (several slices, or a string payload, which
 * needs a NUL after it) copied into the endpoint's buffer.  gRPC's limit
 * on a received message (4 MiB by default) is lifted on both sides.
 *
 * One-way is refused: a unary call always has a response, and a stream of
 * requests without replies would be another API (client streaming), not
 * the one measured here.  gRPC logs to stderr by default; a transport
 * never prints, so its log function is replaced by one that drops.
 */
#include <glib.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <grpc/support/log.h>
#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <ipclab/transport.h>

extern "C" {
#include "transport.h"
}

namespace {

const char kCall[] = "/ipclab.Bench/Call";
const char kEnd[] = "/ipclab.Bench/End";

/* Completion queue tags. */
enum Tag : intptr_t { TAG_NEW = 1, TAG_READ, TAG_FINISH, TAG_REPLY };

void *tag(Tag t)
{
        return reinterpret_cast<void *>(t);
}

/* One call the server takes. */
struct ServerCall {
        grpc::GenericServerContext ctx;
        grpc::GenericServerAsyncReaderWriter stream{&ctx};
        grpc::ByteBuffer request;
        grpc::Slice slice;
};

struct Grpc {
        /* the server */
        grpc::AsyncGenericService service;
        std::unique_ptr<grpc::ServerCompletionQueue> scq;
        std::unique_ptr<grpc::Server> server;
        std::unique_ptr<ServerCall> call;   /* read, not yet answered */
        std::unique_ptr<ServerCall> done;   /* answered, its end not yet collected */
        /* the client */
        std::shared_ptr<grpc::Channel> channel;
        std::unique_ptr<grpc::GenericStub> stub;
        grpc::CompletionQueue cq;
        std::unique_ptr<grpc::ClientContext> context;
        std::unique_ptr<grpc::GenericClientAsyncResponseReader> reader;
        grpc::ByteBuffer reply;
        grpc::Slice reply_slice;
        grpc::Status status;
        bool waiting = false;               /* a call started, its reply not yet read */
};

void grpct_quiet(gpr_log_func_args *args)
{
        (void) args;
}

const char *grpct_libraries(void)
{
        static std::string text = "gRPC C++ " + grpc::Version();
        return text.c_str();
}

const char *grpct_refuses(const IpclabCell *cell)
{
        if (cell->pattern == IPCLAB_PATTERN_ONEWAY)
                return "one-way: a gRPC unary call always has a response (a stream of requests without "
                       "replies would be client streaming, another API)";
        return nullptr;
}

std::string grpct_target(Endpoint *ep)
{
        return std::string("unix:") + ep->dir + "/grpc";
}

/* Takes events from the server's queue until WANT's: an answered call's
 * end, when it comes, frees it.  Its ok, or -1 when the queue is shut. */
int server_await(Grpc *g, Tag want)
{
        void *got;
        bool ok;

        for (;;) {
                if (!g->scq->Next(&got, &ok))
                        return -1;
                if (got == tag(TAG_FINISH))
                        g->done.reset();
                if (got == tag(want))
                        return ok;
        }
}

/* A received buffer's bytes: without a copy where that can be, else
 * copied into EP's buffer with a NUL after them. */
int grpct_bytes(Endpoint *ep, const grpc::ByteBuffer &bb, grpc::Slice *slice, const void **data, size_t *len)
{
        if (ep->cell->payload != IPCLAB_PAYLOAD_STRING && bb.TrySingleSlice(slice).ok()) {
                *data = slice->begin();
                *len = slice->size();
                return 1;
        }
        std::vector<grpc::Slice> slices;
        if (!bb.Dump(&slices).ok())
                return endpoint_fail(ep, EPROTO, "a received gRPC message could not be read");
        size_t n = bb.Length();
        char *buf = static_cast<char *>(endpoint_buffer(ep, n + 1));
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "a receive buffer of %zu bytes", n + 1);
        size_t at = 0;
        for (const auto &s : slices) {
                memcpy(buf + at, s.begin(), s.size());
                at += s.size();
        }
        buf[at] = '\0';
        *data = buf;
        *len = at;
        return 1;
}

int grpct_open(Endpoint *ep, Role role)
{
        ep->role = role;
        gpr_set_log_function(grpct_quiet);
        Grpc *g = new (std::nothrow) Grpc;
        if (!g)
                return endpoint_fail(ep, ENOMEM, "gRPC state");
        ep->priv = g;
        std::string target = grpct_target(ep);
        if (role == ROLE_SERVER) {
                grpc::ServerBuilder builder;
                builder.AddListeningPort(target, grpc::InsecureServerCredentials());
                builder.RegisterAsyncGenericService(&g->service);
                builder.SetMaxReceiveMessageSize(-1);
                g->scq = builder.AddCompletionQueue();
                g->server = builder.BuildAndStart();
                if (!g->server)
                        return endpoint_fail(ep, EADDRNOTAVAIL, "gRPC could not listen on %s", target.c_str());
                return 0;
        }
        grpc::ChannelArguments args;
        args.SetMaxReceiveMessageSize(-1);
        g->channel = grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
        g->stub = std::make_unique<grpc::GenericStub>(g->channel);
        return 0;
}

/* The client: starts a call of METHOD carrying LEN bytes at DATA. */
int grpct_start(Endpoint *ep, const char *method, const void *data, size_t len)
{
        Grpc *g = static_cast<Grpc *>(ep->priv);
        grpc::Slice slice(data, len);
        grpc::ByteBuffer request(&slice, 1);

        g->context = std::make_unique<grpc::ClientContext>();
        g->reader = g->stub->PrepareUnaryCall(g->context.get(), method, request, &g->cq);
        if (!g->reader)
                return endpoint_fail(ep, EPROTO, "gRPC could not prepare a call of %s", method);
        g->reader->StartCall();
        g->reader->Finish(&g->reply, &g->status, tag(TAG_REPLY));
        g->waiting = true;
        return 0;
}

int grpct_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        Grpc *g = static_cast<Grpc *>(ep->priv);

        (void) flags;
        if (ep->role == ROLE_CLIENT)
                return grpct_start(ep, kCall, data, len);
        if (!g->call)
                return endpoint_fail(ep, EPROTO, "a reply with no call to answer");
        grpc::Slice slice(data, len);
        grpc::ByteBuffer reply(&slice, 1);
        g->call->stream.WriteAndFinish(reply, grpc::WriteOptions(), grpc::Status::OK, tag(TAG_FINISH));
        g->done = std::move(g->call);
        return 0;
}

int grpct_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Grpc *g = static_cast<Grpc *>(ep->priv);
        void *got;
        bool ok;

        (void) expect;
        if (ep->role == ROLE_CLIENT) {
                if (!g->waiting)
                        return endpoint_fail(ep, EPROTO, "a reply awaited with no call made");
                if (!g->cq.Next(&got, &ok) || got != tag(TAG_REPLY) || !ok)
                        return endpoint_fail(ep, EPROTO, "gRPC's completion queue gave no reply");
                g->waiting = false;
                if (!g->status.ok())
                        return endpoint_fail(ep, g->status.error_code() == grpc::StatusCode::UNAVAILABLE ? EPIPE : EPROTO,
                                             "gRPC call failed: %s (code %d)", g->status.error_message().c_str(),
                                             (int) g->status.error_code());
                return grpct_bytes(ep, g->reply, &g->reply_slice, data, len);
        }
        g->call = std::make_unique<ServerCall>();
        g->service.RequestCall(&g->call->ctx, &g->call->stream, g->scq.get(), g->scq.get(), tag(TAG_NEW));
        if (server_await(g, TAG_NEW) != 1)
                return endpoint_fail(ep, EPROTO, "gRPC's server gave no call");
        g->call->stream.Read(&g->call->request, tag(TAG_READ));
        if (server_await(g, TAG_READ) != 1)
                return endpoint_fail(ep, EPIPE, "a gRPC call of %s without its request", g->call->ctx.method().c_str());
        if (g->call->ctx.method() == kEnd)
                return 0;
        if (g->call->ctx.method() != kCall)
                return endpoint_fail(ep, EPROTO, "a gRPC call of an unknown method, %s", g->call->ctx.method().c_str());
        return grpct_bytes(ep, g->call->request, &g->call->slice, data, len);
}

int grpct_send_end(Endpoint *ep)
{
        return grpct_start(ep, kEnd, "", 0);
}

void grpct_close(Endpoint *ep)
{
        Grpc *g = static_cast<Grpc *>(ep->priv);

        if (!g)
                return;
        if (g->server) {
                /* the ack's call ends before the server does, at most 1 s */
                if (g->done)
                        server_await(g, TAG_FINISH);
                g->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
                g->scq->Shutdown();
                void *got;
                bool ok;
                while (g->scq->Next(&got, &ok))
                        ;
        }
        if (g->context && g->waiting)
                g->context->TryCancel();
        g->cq.Shutdown();
        void *got;
        bool ok;
        while (g->cq.Next(&got, &ok))
                ;
        delete g;
        ep->priv = nullptr;
}

} // namespace

/* C++17: every field, in the order of ipclab/transport.h. */
extern "C" const Transport transport_grpc = {
        IPCLAB_TRANSPORT_ABI_MAJOR,
        IPCLAB_TRANSPORT_ABI_MINOR,
        sizeof(IpclabTransport),
        GRPC_FLAGS,
        "grpc",
        "library",
        GRPC_SUMMARY,
        nullptr,   /* version: ipclab's */
        nullptr,   /* unavailable: built only where gRPC is */
        nullptr,   /* max_size: gRPC's limit is lifted */
        grpct_refuses,
        nullptr,   /* prepare */
        grpct_open,
        grpct_send,
        grpct_recv,
        grpct_send_end,
        nullptr,   /* call: send() then recv() */
        grpct_close,
        nullptr,   /* cleanup */
        nullptr,   /* command */
        grpct_libraries,
};
