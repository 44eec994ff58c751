package store

import (
	"context"
	"errors"
	"testing"
)

func TestTaskTreeFirstRecordStands(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	if _, err := s.TaskTree(ctx, "t1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no record: %v", err)
	}
	if err := s.PutTaskTree(ctx, "t1", "{}"); err == nil {
		t.Fatal("a tree for a task that does not exist was recorded")
	}
	if _, err := s.CreateTask(ctx, mkTask("t1")); err != nil {
		t.Fatal(err)
	}
	if err := s.WithTx(ctx, func(tx *Tx) error { return tx.PutTaskTree(ctx, "t1", "first") }); err != nil {
		t.Fatal(err)
	}
	if err := s.PutTaskTree(ctx, "t1", "second"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.TaskTree(ctx, "t1"); err != nil || got != "first" {
		t.Fatalf("TaskTree = %q, %v; want the first record", got, err)
	}
}
