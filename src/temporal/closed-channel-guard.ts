import { InterceptingCall, Metadata, status, type Interceptor } from '@grpc/grpc-js';

type NextCall = ConstructorParameters<typeof InterceptingCall>[0];

const CLOSED = 'Channel has been shut down';

/** A call on a closed connection: it ends CANCELLED as soon as it starts, and sends nothing. */
function cancelledCall(): NextCall {
  return {
    start(_metadata, listener) {
      setImmediate(() =>
        listener?.onReceiveStatus?.({ code: status.CANCELLED, details: 'connection closed', metadata: new Metadata() }),
      );
    },
    cancelWithStatus() {},
    getPeer: () => '',
    sendMessageWithContext() {},
    sendMessage() {},
    startRead() {},
    halfClose() {},
    getAuthContext: () => null,
  };
}

/**
 * The Temporal client's retry interceptor schedules each retry with setTimeout, and Connection.close() does not clear
 * those timers: a call in backoff when the connection closes retries afterwards, and grpc-js throws "Channel has been
 * shut down" from inside the timer, an uncaught exception that can end a process at shutdown. Placed after the retry
 * interceptor, this guard turns that late attempt into a CANCELLED status, which the retry interceptor does not retry.
 */
export function closedChannelGuard(): Interceptor {
  return (options, nextCall) => {
    try {
      return new InterceptingCall(nextCall(options));
    } catch (err) {
      if (!(err instanceof Error) || err.message !== CLOSED) throw err;
      return new InterceptingCall(cancelledCall());
    }
  };
}
