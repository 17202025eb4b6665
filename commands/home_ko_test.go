package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/i18n"
	"github.com/gpuplan/gpuplan/store"
)

// inKorean runs text as user with a Korean reader and returns its text.
func inKorean(t *testing.T, s *Set, user, text string) string {
	t.Helper()
	r, err := s.Dispatch(context.Background(), Request{User: user, Channel: "C1", Text: text, Lang: i18n.KO})
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	if r.Lang != i18n.KO {
		t.Errorf("%q: reply says it is in %q", text, r.Lang)
	}
	return textOf(t, r)
}

func wantIn(t *testing.T, what, got string, want, unwanted []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, got)
		}
	}
	for _, w := range unwanted {
		if strings.Contains(got, w) {
			t.Errorf("%s says %q in English:\n%s", what, w, got)
		}
	}
}

// The App Home, Keep and the digest command's answers read in Korean for
// a Korean reader: words, times (오늘, 11월 23일 (월)) and schedules (매주
// 월 09:00), with ids, servers and commands as they are.
func TestKoreanHomeKeepAndDigestAnswers(t *testing.T) {
	s, clock := newReservations(t)
	ctx := context.Background()
	rv := mustDo(t, s, "U0ADMIN", "reserve 2 on server-h for 3h").Data.(store.Reservation)
	mustDo(t, s, "U0ADMIN", "digest #C0123ABC weekly mon 09:00")

	home, err := s.Home(ctx, Request{User: "U0ADMIN", Lang: i18n.KO})
	if err != nil {
		t.Fatal(err)
	}
	if home.Lang != i18n.KO {
		t.Errorf("Home says it is in %q", home.Lang)
	}
	wantIn(t, "Korean Home", textOf(t, home),
		[]string{"내 예약 (1건)", rv.ID + " · server-h GPU 0,1 · 사용 중, 오늘 10:00 → 오늘 13:00", "1시간 연장", "반납", "서버 현황", "다음 빈 시각",
			"다이제스트 구독 (관리자)", "<#C0123ABC>: 매주 월 09:00 (Asia/Seoul)", "시간은 Asia/Seoul 기준"},
		[]string{"Your reservations", "today", "active", "The fleet", "weekly", "Times in"})
	if a := home.Actions; len(a) != 2 || a[0].Label != "작업 계획하기" || a[1].Label != "GPU 예약" {
		t.Errorf("Korean quick actions: %+v", a)
	}

	clock.Advance(30 * time.Minute)
	wantIn(t, "Korean keep", inKorean(t, s, "U0ADMIN", "keep "+rv.ID),
		[]string{"계속 쓰기로 했습니다", rv.ID + ": 오늘 13:00까지 계속 쓰실 수 있습니다", "1시간 동안은 유휴 알림을 보내지 않습니다"},
		[]string{"stays yours", "today", "next 1h"}) // not "1h" alone: the random reservation id may hold it

	wantIn(t, "Korean digest list", inKorean(t, s, "U1", "digest list"),
		[]string{"다이제스트 일정", "다이제스트 받는 채널 1개", "채널", "범위", "직전 1주", "매주 월 09:00 Asia/Seoul", "11월 23일 (월) 09:00 KST"},
		[]string{"schedules", "the week before", "weekly", "Mon Nov"})

	if _, err := s.Dispatch(ctx, Request{User: "U1", Channel: "C1", Text: "digest off", Lang: i18n.KO}); err == nil ||
		!strings.Contains(err.Error(), "다이제스트 중지: 관리자만 할 수 있습니다") {
		t.Errorf("Korean refusal of a non-admin: %v", err)
	}
	off, err := s.Dispatch(ctx, Request{User: "U0ADMIN", Channel: "C0123ABC", Text: "digest off", Lang: i18n.KO})
	if err != nil {
		t.Fatal(err)
	}
	wantIn(t, "Korean digest off", textOf(t, off),
		[]string{"다이제스트 중지됨", "<#C0123ABC>에 더 이상 다이제스트를 보내지 않습니다 (중지: <@U0ADMIN>)"}, []string{"stopped"})
}
