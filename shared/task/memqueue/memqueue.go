// Package memqueue is the embedded composition's queue and workflow for the task
// engine: an in-process queue of per-record messages with bounded workers
// (task.Queue), and a goroutine per task that drives its steps (task.Workflow).
//
// Nothing here is persisted, on purpose: the store is the source of truth for pending
// work. After a crash, task.Engine.Resume restarts the workflow of every unfinished
// task, and its EnqueueChunk sends again each record that has no answer yet.
package memqueue

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/task"
)

// Handler processes one message; task.Engine implements it. A nil error deletes the
// message; an error delivers it again after a delay.
type Handler interface {
	Handle(ctx context.Context, m task.Message) error
}

// Options size the queue.
type Options struct {
	// Lanes sets the worker count of a provider's lane (task.Message.Provider), so a
	// busy provider never holds workers that another provider's records could use.
	Lanes map[string]int
	// Workers is the worker count of a lane not listed in Lanes; default 16.
	Workers int
	// Attempts bounds deliveries of a message whose handler keeps failing; default 5.
	// A message dropped after them is picked up again by the workflow's stall check.
	Attempts int
	// RetryDelay is the first redelivery delay, doubling each time; default 200 ms.
	RetryDelay time.Duration
	Log        *slog.Logger
}

// Queue is an in-process task.Queue. Within a lane, tasks take turns (round robin),
// so a large task does not hold back a small one submitted after it.
type Queue struct {
	opts    Options
	mu      sync.Mutex
	lanes   map[string]*lane
	handler Handler
	closed  bool
	ctx     context.Context // ends in-flight handlers when a drain runs out of time
	cancel  context.CancelFunc
	workers sync.WaitGroup
	timers  map[*time.Timer]bool
}

var _ task.Queue = (*Queue)(nil)

type delivery struct {
	msg     task.Message
	attempt int
}

// lane holds one provider's messages: a FIFO per task and a ring of tasks.
type lane struct {
	cond    *sync.Cond
	byTask  map[task.Ref][]delivery
	ring    []task.Ref
	next    int
	pending int
	size    int // workers
	started bool
	busy    int
}

// New makes a queue. Messages sent before Run wait for it.
func New(opts Options) *Queue {
	if opts.Workers <= 0 {
		opts.Workers = 16
	}
	if opts.Attempts <= 0 {
		opts.Attempts = 5
	}
	if opts.RetryDelay <= 0 {
		opts.RetryDelay = 200 * time.Millisecond
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Queue{opts: opts, lanes: map[string]*lane{}, ctx: ctx, cancel: cancel, timers: map[*time.Timer]bool{}}
}

// ErrClosed is returned by Send after Close.
var ErrClosed = errors.New("memqueue: closed")

// Send implements task.Queue.
func (q *Queue) Send(ctx context.Context, msgs []task.Message) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	for _, m := range msgs {
		q.pushLocked(delivery{msg: m, attempt: 1})
	}
	return nil
}

func (q *Queue) pushLocked(d delivery) {
	l := q.lanes[d.msg.Provider]
	if l == nil {
		size, ok := q.opts.Lanes[d.msg.Provider]
		if !ok || size <= 0 {
			size = q.opts.Workers
		}
		l = &lane{cond: sync.NewCond(&q.mu), byTask: map[task.Ref][]delivery{}, size: size}
		q.lanes[d.msg.Provider] = l
	}
	if _, ok := l.byTask[d.msg.Ref]; !ok {
		l.ring = append(l.ring, d.msg.Ref)
	}
	l.byTask[d.msg.Ref] = append(l.byTask[d.msg.Ref], d)
	l.pending++
	q.startLocked(l)
	l.cond.Signal()
}

// Run starts the workers; they call h for each message until Close.
func (q *Queue) Run(h Handler) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.handler = h
	for _, l := range q.lanes {
		q.startLocked(l)
	}
}

func (q *Queue) startLocked(l *lane) {
	if l.started || q.handler == nil || q.closed {
		return
	}
	l.started = true
	for i := 0; i < l.size; i++ {
		q.workers.Add(1)
		go q.work(l)
	}
}

func (q *Queue) work(l *lane) {
	defer q.workers.Done()
	for {
		d, ok := q.take(l)
		if !ok {
			return
		}
		err := q.handler.Handle(q.ctx, d.msg)
		q.mu.Lock()
		l.busy--
		if err != nil {
			q.retryLocked(d, err)
		}
		q.mu.Unlock()
	}
}

// take waits for the next message of the lane, taking tasks in turn.
func (q *Queue) take(l *lane) (delivery, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for l.pending == 0 && !q.closed {
		l.cond.Wait()
	}
	if q.closed {
		return delivery{}, false
	}
	if l.next >= len(l.ring) {
		l.next = 0
	}
	ref := l.ring[l.next]
	list := l.byTask[ref]
	d := list[0]
	if len(list) == 1 {
		delete(l.byTask, ref)
		l.ring = append(l.ring[:l.next], l.ring[l.next+1:]...)
	} else {
		list[0] = delivery{} // let the message be collected
		l.byTask[ref] = list[1:]
		l.next++
	}
	l.pending--
	l.busy++
	return d, true
}

func (q *Queue) retryLocked(d delivery, err error) {
	if q.closed {
		return // shutting down: the record is redone after the restart
	}
	if d.attempt >= q.opts.Attempts {
		q.opts.Log.Error("task record dropped after repeated failures", "task", d.msg.Ref.String(), "key", d.msg.Key, "attempts", d.attempt, "err", err)
		return
	}
	delay := q.opts.RetryDelay << (d.attempt - 1)
	d.attempt++
	var t *time.Timer
	t = time.AfterFunc(delay, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		delete(q.timers, t)
		if !q.closed {
			q.pushLocked(d)
		}
	})
	q.timers[t] = true
}

// Stats are the queue's counts.
type Stats struct {
	Pending  int // waiting for a worker
	InFlight int // being handled
}

// Stats returns the current counts.
func (q *Queue) Stats() Stats {
	q.mu.Lock()
	defer q.mu.Unlock()
	var s Stats
	for _, l := range q.lanes {
		s.Pending += l.pending
		s.InFlight += l.busy
	}
	return s
}

// Close stops taking messages and waits for the in-flight ones to finish. If ctx ends
// first, their handlers' context is cancelled (they write nothing and are redone after
// a restart) and Close waits for them to return. Waiting messages are dropped: the
// store still lists their records as unanswered.
func (q *Queue) Close(ctx context.Context) error {
	q.mu.Lock()
	q.closed = true
	for t := range q.timers {
		t.Stop()
	}
	for _, l := range q.lanes {
		l.cond.Broadcast()
	}
	q.mu.Unlock()
	done := make(chan struct{})
	go func() { q.workers.Wait(); close(done) }()
	select {
	case <-done:
		q.cancel()
		return nil
	case <-ctx.Done():
		q.cancel()
		<-done
		return ctx.Err()
	}
}
