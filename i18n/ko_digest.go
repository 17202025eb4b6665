package i18n

// koDigest is the Korean text for digests, their chart and schedules.
//
// A digest is a status post the whole team reads: headings and table
// columns are short nouns, notes end plainly (~음/~함 style is avoided;
// ~요 where it is a sentence), GPU-h stays as written.
//
// koDigest is long on purpose: it is a catalogue, one message a line.
func koDigest() map[string]string {
	return map[string]string{
		// commands/digest.go: the reply
		"digests need the reservation store":                                          "다이제스트에는 예약 저장소가 필요해요",
		"run `gpuplan serve` with REDIS_URL, or with the embedded store (GPUPLAN_DB)": "REDIS_URL을 설정하거나 내장 저장소(GPUPLAN_DB)로 `gpuplan serve`를 실행하세요",
		"Daily GPU digest":      "일간 GPU 다이제스트",
		"Weekly GPU digest":     "주간 GPU 다이제스트",
		"server":                "서버",
		"booked":                "예약",
		"measured util":         "실측 사용률",
		"booked but idle":       "예약했지만 유휴",
		"used unbooked":         "예약 없이 사용",
		"waiting":               "대기",
		"%s of %s GPU-h (%s)%s": "%s / %s GPU-h (%s)%s",
		"no agent":              "agent 없음",
		" (%s observed)":        " (%s 관측)",
		"%s: no agent reported, so this is from bookings alone":                         "%s: agent 보고가 없어서 예약 기록만으로 집계했어요",
		"%s: %s of the booked GPU-h ran a job through `gpuplan exec` (booked and used)": "%s: 예약된 GPU-h 중 %s은 `gpuplan exec`로 작업이 돌았어요 (예약하고 사용함)",
		"%s used without a booking: %s":                                                 "%s 예약 없이 사용: %s",
		"%s – %s: %s of %s GPU-hours booked (%s)":                                       "%s – %s: GPU-시간 %s / %s 예약 (%s)",
		"; %s booked but idle; %s used without a booking":                               "; 예약했지만 유휴 %s, 예약 없이 사용 %s",
		"; no agent reported, so nothing was measured":                                  "; agent 보고가 없어 실측값은 없어요",
		"Servers":                      "서버",
		"Worth a look":                 "확인해 볼 것",
		"booked: %s %s GPU-h%s":        "예약: %s %s GPU-h%s",
		"used: %s %s GPU-h%s":          "사용: %s %s GPU-h%s",
		"Top users":                    "많이 쓴 사람",
		"`%s` %s GPUs %s, %s, ends %s": "`%s` %s GPU %s, %s, %s 종료",
		"Expiring within a day":        "하루 안에 끝나는 예약",
		"Booked = reserved GPU-hours. Measured by `gpuplan agent` (nvidia-smi every 30 s): a GPU is busy at ≥5%% utilization or with a compute process. Changes compare with the period before.": "예약 = 예약된 GPU-시간. 실측은 `gpuplan agent`(30초마다 nvidia-smi) 기준이고, 사용률 ≥5%%이거나 compute 프로세스가 있으면 사용 중으로 봐요. 증감은 직전 기간과 비교한 값이에요.",
		"GPU utilization by hour":                           "시간대별 GPU 사용률",
		"Heat map of measured GPU utilization per hour; %s": "시간대별 실측 GPU 사용률 히트맵; %s",
		"%s (unmapped Unix user)":                           "%s (Slack 계정과 연결 안 된 Unix 사용자)",
		" (new)":                                            " (신규)",
		" (↑%.0f pts)":                                      " (↑%.0f%%p)",
		" (↓%.0f pts)":                                      " (↓%.0f%%p)",

		// digest/report.go, digest/chart.go: the chart
		"GPU utilization by hour, %s – %s":           "시간대별 GPU 사용률, %s – %s",
		" %d%% mean GPU utilization":                 " %d%% 평균 GPU 사용률",
		"no data":                                    "데이터 없음",
		"booked, idle (<%d%%)":                       "예약, 유휴 (<%d%%)",
		"Posted late: no gpuplan was running at %s.": "늦게 올림: %s에 실행 중인 gpuplan이 없었습니다.",
	}
}
