/* qtdbus.cpp: D-Bus method calls through QtDBus 5 (Qt's own binding, over
 * libdbus-1), the library seed 000 measured (as Qt 4.4).
 *
 * Threads and event loops.  QtDBus 5 does every connection's socket I/O
 * in a thread of its own (the connection manager's, started by QtDBus;
 * no way around it, as GDBus's worker), and hands incoming calls to the
 * thread of the object they are for.  No other event loop runs: the
 * client makes synchronous calls (QDBusConnection::call with QDBus::Block,
 * which waits for the reply without processing events) and sends one-way
 * messages with QDBusConnection::send(); the server's recv() drives the
 * main thread's event loop explicitly (QCoreApplication::processEvents,
 * waiting) until a call has been queued.  A QCoreApplication is made in
 * open(), in the child the runner forked for the role, never at load time,
 * so the rest of ipclab never starts Qt; it is never destroyed (the child
 * _exit()s after close()).  Qt's warnings are kept for ep->why instead of
 * being printed.
 *
 * The server's object is a QDBusVirtualObject (no moc, no metacall): its
 * handleMessage() queues every org.ipclab.Bench call; send() answers the
 * current one with createReply() and QDBusConnection::send().  Peer to
 * peer, the server listens with a QDBusServer and takes its first
 * connection (newConnection); the client uses connectToPeer().  Through a
 * bus, both use connectToBus() with the private bus's address and the
 * server owns org.ipclab.Bench (registerService: primary owner or fail).
 *
 * Payloads: QByteArray as `ay` (QByteArray::fromRawData over the caller's
 * bytes, which libdbus copies when QtDBus marshals them; received, QtDBus
 * demarshals into a QByteArray, which recv() hands out), QString as `s`:
 * the runner's UTF-8 is made a QString (UTF-16) for every send, QtDBus
 * converts it back to UTF-8 for the wire, the receiver's QtDBus makes a
 * QString of it again and recv() converts that to UTF-8 for the runner's
 * checks.  The two conversions in the middle are what seed 000 blamed for
 * its string costs; the outer two are the price of a runner that holds
 * bytes (an application would hold QStrings): an echo reply is built from
 * the QString received, as an application echoing would, not converted
 * again.  libdbus validates every string it receives.
 *
 * Queues.  QDBusConnection::send() only queues (to the I/O thread, then
 * libdbus's outgoing queue, the server's QtDBus queues to its main thread
 * in turn), none of them bounded; so a one-way stream makes a round trip
 * (a Sync call, answered by the server's recv() without reaching the
 * runner) every SYNC_BYTES, which bounds them all.  The server's last
 * reply (the ack) is queued the same way: close() waits for a Ping's
 * answer (from the bus, or from the peer), which leaves after it.
 */
#define QT_NO_KEYWORDS   /* GIO's headers name members `signals` */
#include <gio/gio.h>

#include <cerrno>
#include <climits>
#include <clocale>
#include <cstring>
#include <deque>
#include <string>

#include <QtCore/QByteArray>
#include <QtCore/QCoreApplication>
#include <QtCore/QEventLoop>
#include <QtCore/QMutex>
#include <QtCore/QString>
#include <QtCore/QThread>
#include <QtCore/QVariant>
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusError>
#include <QtDBus/QDBusMessage>
#include <QtDBus/QDBusServer>
#include <QtDBus/QDBusVirtualObject>

#include <ipclab/transport.h>
extern "C" {
#include "transport.h"
}
#include "bench-names.h"

namespace {

const char *const kName = BENCH_NAME;
const char *const kPath = BENCH_PATH;
const char *const kIface = BENCH_IFACE;
/* A one-way stream makes a Sync round trip every SYNC_BYTES. */
const size_t SYNC_BYTES = 4u << 20;
const size_t MESSAGE_OVERHEAD = 256;

/* Qt's last warning, for ep->why: Qt prints them otherwise. */
std::string last_warning;

void keep_warning(QtMsgType type, const QMessageLogContext &ctx, const QString &msg)
{
        (void) ctx;
        if (type != QtDebugMsg && type != QtInfoMsg)
                last_warning = msg.toStdString();
}

struct Qtdbus;

/* The server's object: queues every org.ipclab.Bench call. */
class Bench : public QDBusVirtualObject {
public:
        explicit Bench(Qtdbus *p) : p_(p) {}
        QString introspect(const QString &path) const override;
        bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override;

private:
        Qtdbus *p_;
};

struct Qtdbus {
        QString name;                   /* the connection's name in QtDBus */
        QDBusConnection conn{QString()};
        bool connected = false;
        bool peer = false;
        QDBusServer *server = nullptr;  /* p2p server, until its client is in */
        std::string accept_error;       /* p2p: why the client's connection failed */
        Bench *bench = nullptr;
        QString dest;                   /* the bus name, empty peer to peer */
        std::deque<QDBusMessage> calls; /* server: not yet taken */
        QDBusMessage request;           /* server: the call send() answers */
        bool have_request = false;
        QDBusMessage reply;             /* client: the reply recv() reads */
        bool have_reply = false;
        size_t unsynced = 0;            /* client: one-way bytes since a Sync */
        /* What a handed-out payload points into, until the next op. */
        QByteArray held_bytes;
        QString held_string;
        QByteArray held_utf8;
};

QString Bench::introspect(const QString &path) const
{
        (void) path;
        return QStringLiteral("<interface name=\"" BENCH_IFACE "\"/>");
}

bool Bench::handleMessage(const QDBusMessage &message, const QDBusConnection &connection)
{
        (void) connection;
        if (message.interface() != QLatin1String(kIface))
                return false;
        p_->calls.push_back(message);
        return true;
}

int fail_qt(Endpoint *ep, const QDBusError &e, const char *what)
{
        std::string name = e.name().toStdString(), msg = e.message().toStdString();

        if (name.empty() && !last_warning.empty())
                return endpoint_fail(ep, 0, "%s: %s", what, last_warning.c_str());
        return endpoint_fail(ep, 0, "%s: %s (%s)", what, msg.empty() ? "no message" : msg.c_str(),
                             name.empty() ? "no error name" : name.c_str());
}

const char *request_member(const Endpoint *ep, size_t len)
{
        if (len == 0)
                return "SendEmpty";
        return ep->cell->payload == PAYLOAD_STRING ? "SendString" : "SendBytes";
}

/* unix:path=DIR/p2p, escaped as a D-Bus address. */
QString p2p_address(const Endpoint *ep)
{
        g_autofree char *path = g_build_filename(ep->dir, "p2p", NULL);
        g_autofree char *esc = g_dbus_address_escape_value(path);

        return QStringLiteral("unix:path=") + QString::fromUtf8(esc);
}

/* The payload as an argument: QByteArray over the caller's bytes, or a
 * QString (reusing the one received when DATA is its UTF-8). */
QVariant payload_arg(const Endpoint *ep, const Qtdbus *p, const void *data, size_t len)
{
        const char *c = static_cast<const char *>(data);

        if (ep->cell->payload != PAYLOAD_STRING)
                return QVariant(QByteArray::fromRawData(c, (int) len));
        if (c == p->held_utf8.constData() && (int) len == p->held_utf8.size())
                return QVariant(p->held_string);
        return QVariant(QString::fromUtf8(c, (int) len));
}

/* Reads the payload of M (no argument, `ay` or `s`) into P's held values. */
int read_payload(Endpoint *ep, Qtdbus *p, const QDBusMessage &m, const void **data, size_t *len)
{
        const QList<QVariant> args = m.arguments();

        if (args.isEmpty()) {
                *data = "";
                *len = 0;
                return 0;
        }
        const QVariant &a = args.at(0);
        if (a.userType() == QMetaType::QByteArray) {
                p->held_bytes = a.toByteArray();
                *data = p->held_bytes.constData();
                *len = (size_t) p->held_bytes.size();
                return 0;
        }
        if (a.userType() == QMetaType::QString) {
                p->held_string = a.toString();
                p->held_utf8 = p->held_string.toUtf8();
                *data = p->held_utf8.constData();   /* NUL-terminated */
                *len = (size_t) p->held_utf8.size();
                return 0;
        }
        return endpoint_fail(ep, EPROTO, "unexpected message signature '%s'",
                             m.signature().toUtf8().constData());
}

void release_hold(Qtdbus *p)
{
        p->held_bytes = QByteArray();
        p->held_string = QString();
        p->held_utf8 = QByteArray();
}

/* A blocking call with no timeout of its own (the runner has one). */
QDBusMessage call_blocking(Qtdbus *p, const QDBusMessage &m)
{
        return p->conn.call(m, QDBus::Block, INT_MAX);
}

/* --- open ------------------------------------------------------------- */

void ensure_application()
{
        static int argc = 1;
        static char arg0[] = "ipclab";
        static char *argv[] = { arg0, nullptr };

        if (!QCoreApplication::instance()) {
                /* QCoreApplication sets the locale from the environment:
                 * the rest of the process keeps the one it had. */
                std::string locale = setlocale(LC_ALL, nullptr);
                qInstallMessageHandler(keep_warning);
                new QCoreApplication(argc, argv);
                setlocale(LC_ALL, locale.c_str());
        }
}

int register_object(Endpoint *ep, Qtdbus *p)
{
        p->bench = new Bench(p);
        if (!p->conn.registerVirtualObject(QLatin1String(kPath), p->bench))
                return endpoint_fail(ep, EEXIST, "registerVirtualObject %s: %s", kPath,
                                     last_warning.empty() ? "refused" : last_warning.c_str());
        return 0;
}

int server_listen(Endpoint *ep, Qtdbus *p)
{
        p->server = new QDBusServer(p2p_address(ep));
        if (!p->server->isConnected())
                return fail_qt(ep, p->server->lastError(), "QDBusServer");
        QObject::connect(p->server, &QDBusServer::newConnection, [ep, p](const QDBusConnection &c) {
                if (p->connected)
                        return;   /* one client per repetition */
                p->conn = c;
                p->connected = true;
                p->name = c.name();
                if (register_object(ep, p) < 0)
                        p->accept_error = ep->why;
        });
        return 0;
}

int open_endpoint(Endpoint *ep, Role role, Qtdbus *p)
{
        p->peer = ep->cell->bus == BUS_P2P;
        if (!p->peer && !ep->bus_address)
                return endpoint_fail(ep, EINVAL, "no bus address for bus=%s", bus_name((BusKind) ep->cell->bus));
        if (role == ROLE_SERVER && p->peer)
                return server_listen(ep, p);
        p->name = QStringLiteral("ipclab-%1").arg(role == ROLE_SERVER ? "server" : "client");
        if (p->peer)
                p->conn = QDBusConnection::connectToPeer(p2p_address(ep), p->name);
        else
                p->conn = QDBusConnection::connectToBus(QString::fromUtf8(ep->bus_address), p->name);
        if (!p->conn.isConnected())
                return fail_qt(ep, p->conn.lastError(), p->peer ? "connectToPeer" : "connectToBus");
        p->connected = true;
        if (role == ROLE_CLIENT) {
                if (!p->peer)
                        p->dest = QLatin1String(kName);
                return 0;
        }
        int r = register_object(ep, p);
        if (r < 0)
                return r;
        if (!p->conn.registerService(QLatin1String(kName)))
                return endpoint_fail(ep, EADDRINUSE, "registerService %s: not the primary owner (%s)", kName,
                                     p->conn.lastError().message().toUtf8().constData());
        return 0;
}

/* --- server ----------------------------------------------------------- */

int answer(Endpoint *ep, Qtdbus *p, const QDBusMessage &call, const QList<QVariant> &args)
{
        if (!p->conn.send(call.createReply(args)))
                return fail_qt(ep, p->conn.lastError(), "sending the reply");
        return 0;
}

int server_recv(Endpoint *ep, Qtdbus *p, const void **data, size_t *len)
{
        release_hold(p);
        p->have_request = false;
        for (;;) {
                while (p->calls.empty()) {
                        if (!p->accept_error.empty())
                                return endpoint_fail(ep, ECONNREFUSED, "accepting the p2p client: %s",
                                                     p->accept_error.c_str());
                        if (p->server && p->connected) {
                                delete p->server;   /* the client is in: stop listening */
                                p->server = nullptr;
                        }
                        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
                }
                QDBusMessage call = p->calls.front();
                p->calls.pop_front();
                const QString member = call.member();
                if (member == QLatin1String("Sync")) {
                        int r = answer(ep, p, call, {});
                        if (r < 0)
                                return r;
                        continue;
                }
                if (member == QLatin1String("End")) {
                        p->request = call;
                        p->have_request = true;
                        return 0;
                }
                int r = read_payload(ep, p, call, data, len);
                if (r < 0)
                        return r;
                if (call.isReplyRequired()) {
                        p->request = call;
                        p->have_request = true;
                }
                return 1;
        }
}

int server_send(Endpoint *ep, Qtdbus *p, const void *data, size_t len)
{
        if (!p->have_request)
                return endpoint_fail(ep, EPROTO, "no request to answer");
        QList<QVariant> args;
        if (len > 0)
                args << payload_arg(ep, p, data, len);
        int r = answer(ep, p, p->request, args);
        p->request = QDBusMessage();
        p->have_request = false;
        release_hold(p);
        return r;
}

/* --- client ----------------------------------------------------------- */

QDBusMessage new_call(const Endpoint *ep, const Qtdbus *p, const char *member, const void *data, size_t len)
{
        QDBusMessage m = QDBusMessage::createMethodCall(p->dest, QLatin1String(kPath), QLatin1String(kIface),
                                                        QLatin1String(member));
        if (len > 0)
                m << payload_arg(ep, p, data, len);
        return m;
}

/* A reply, or the error it is. */
int take_reply(Endpoint *ep, Qtdbus *p, const QDBusMessage &reply, const void **data, size_t *len)
{
        if (reply.type() != QDBusMessage::ReplyMessage)
                return fail_qt(ep, QDBusError(reply), "the call failed");
        int r = read_payload(ep, p, reply, data, len);
        return r < 0 ? r : 1;
}

int client_send(Endpoint *ep, Qtdbus *p, const char *member, const void *data, size_t len, unsigned flags)
{
        if (p->have_reply)
                return endpoint_fail(ep, EPROTO, "the previous reply was not read");
        QDBusMessage m = new_call(ep, p, member, data, len);
        release_hold(p);
        if (!(flags & SEND_NO_REPLY)) {
                /* A call whose reply recv() reads: made and waited for here. */
                p->reply = call_blocking(p, m);
                p->have_reply = true;
                p->unsynced = 0;
                return 0;
        }
        if (!p->conn.send(m))   /* marks it NO_REPLY_EXPECTED */
                return fail_qt(ep, p->conn.lastError(), "QDBusConnection::send");
        p->unsynced += len + MESSAGE_OVERHEAD;
        if (p->unsynced >= SYNC_BYTES) {
                p->unsynced = 0;
                QDBusMessage sync = call_blocking(p, new_call(ep, p, "Sync", nullptr, 0));
                if (sync.type() != QDBusMessage::ReplyMessage)
                        return fail_qt(ep, QDBusError(sync), "Sync");
        }
        return 0;
}

int client_recv(Endpoint *ep, Qtdbus *p, const void **data, size_t *len)
{
        release_hold(p);
        if (!p->have_reply)
                return endpoint_fail(ep, EPROTO, "no reply is due");
        QDBusMessage reply = p->reply;
        p->reply = QDBusMessage();
        p->have_reply = false;
        return take_reply(ep, p, reply, data, len);
}

/* --- the ops ---------------------------------------------------------- */

void qtdbus_close(Endpoint *ep);

const char *qtdbus_unavailable(void)
{
        return NULL;
}

/* roles=threads: refused (no TRANSPORT_THREADS), with QtDBus's reason. */
const char *qtdbus_refuses(const IpclabCell *cell)
{
        if (cell->roles == IPCLAB_ROLES_THREADS)
                return "roles=threads: QtDBus does every connection's I/O in one thread per process and has "
                       "one QCoreApplication per process, which the two roles would share (and neither "
                       "role's thread CPU clock holds)";
        return nullptr;
}

/* The D-Bus specification caps arrays at 64 MiB (messages at 128 MiB);
 * QByteArray and QString sizes are ints. */
size_t qtdbus_max_size(const IpclabCell *cell)
{
        (void) cell;
        return (size_t) 64 << 20;
}

int qtdbus_open(Endpoint *ep, Role role)
{
        ensure_application();
        Qtdbus *p = new Qtdbus;
        ep->role = role;
        ep->priv = p;
        last_warning.clear();
        int r = open_endpoint(ep, role, p);
        if (r < 0) {
                qtdbus_close(ep);
                return r;
        }
        return 0;
}

int qtdbus_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        Qtdbus *p = static_cast<Qtdbus *>(ep->priv);

        if (ep->role == ROLE_SERVER)
                return server_send(ep, p, data, len);
        return client_send(ep, p, request_member(ep, len), data, len, flags);
}

int qtdbus_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Qtdbus *p = static_cast<Qtdbus *>(ep->priv);

        (void) expect;
        if (ep->role == ROLE_SERVER)
                return server_recv(ep, p, data, len);
        return client_recv(ep, p, data, len);
}

int qtdbus_send_end(Endpoint *ep)
{
        return client_send(ep, static_cast<Qtdbus *>(ep->priv), "End", nullptr, 0, 0);
}

int qtdbus_call(Endpoint *ep, const void *data, size_t len, const void **reply, size_t *reply_len,
                size_t expect)
{
        Qtdbus *p = static_cast<Qtdbus *>(ep->priv);

        (void) expect;
        QDBusMessage m = new_call(ep, p, request_member(ep, len), data, len);
        release_hold(p);
        return take_reply(ep, p, call_blocking(p, m), reply, reply_len);
}

void qtdbus_close(Endpoint *ep)
{
        Qtdbus *p = static_cast<Qtdbus *>(ep->priv);

        if (!p)
                return;
        if (p->connected && ep->role == ROLE_SERVER) {
                /* The ack is queued in QtDBus's I/O thread: a Ping queued
                 * after it is answered only once it has left. */
                QDBusMessage ping = p->peer
                        ? QDBusMessage::createMethodCall(QString(), QStringLiteral("/"),
                                                         QStringLiteral("org.freedesktop.DBus.Peer"),
                                                         QStringLiteral("Ping"))
                        : QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.DBus"),
                                                         QStringLiteral("/org/freedesktop/DBus"),
                                                         QStringLiteral("org.freedesktop.DBus.Peer"),
                                                         QStringLiteral("Ping"));
                p->conn.call(ping, QDBus::Block, 5000);
        }
        if (p->connected) {
                p->conn.unregisterObject(QLatin1String(kPath));
                QString name = p->name;
                p->conn = QDBusConnection(QString());
                if (p->peer)
                        QDBusConnection::disconnectFromPeer(name);
                else
                        QDBusConnection::disconnectFromBus(name);
        }
        delete p->server;
        delete p->bench;
        delete p;
        ep->priv = nullptr;
}

} // namespace

/* C++17: every field, in the order of ipclab/transport.h. */
extern "C" const Transport transport_qtdbus = {
        IPCLAB_TRANSPORT_ABI_MAJOR,
        IPCLAB_TRANSPORT_ABI_MINOR,
        sizeof(IpclabTransport),
        QTDBUS_FLAGS,
        "qtdbus",
        "dbus",
        QTDBUS_SUMMARY "; this QtDBus " IPCLAB_QTDBUS_VERSION,
        nullptr,   /* version: ipclab's */
        qtdbus_unavailable,
        qtdbus_max_size,
        qtdbus_refuses,
        nullptr,   /* prepare */
        qtdbus_open,
        qtdbus_send,
        qtdbus_recv,
        qtdbus_send_end,
        qtdbus_call,
        qtdbus_close,
        nullptr,   /* cleanup */
        nullptr,   /* command */
        nullptr,   /* libraries: meta.ini has QtDBus's version */
};
