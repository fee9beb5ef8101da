// qt: confetti over a Qt 6 program's own scene, in a QOpenGLWidget (a backdrop and a stage
// along the bottom). A click throws a burst where it lands, space fires the effect's cannons
// again, esc quits.
//
//   cmake -S . -B build && cmake --build build      (CMakeLists.txt beside this file)
//   ./build/qt-confetti [PRESET] [--seed N] [--seconds S] [--snapshot OUT.png --at T]
//
// --seed picks the random draws (default 1); --seconds quits after that long (default: when the
// window is closed); --snapshot draws the moment T seconds after the effect opened (default
// 0.5), saves the widget's pixels as a PNG and quits: `confetti render --preset PRESET --size
// 960x540 --seed N --time T --background '#1a1f33'` is the same picture above the stage.
#include <confetti.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QSurfaceFormat>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

class ConfettiWidget : public QOpenGLWidget, protected QOpenGLFunctions {
public:
  ConfettiWidget(const char *preset, uint64_t seed) : preset(preset), seed(seed) {
    setWindowTitle("Confetti in Qt");
    resize(960, 540);
  }
  ~ConfettiWidget() override { teardown(); }

  double clock = 1.0; // seconds: the effect opens at this reading, as `confetti render` opens it
  bool ticking = true; // false: the clock is set by hand (a snapshot)
  int status = 0;

  // Time is the program's to give: steps to `moment` as 60 frames a second would.
  void stepTo(double moment) {
    ticking = false;
    while (confetti && clock < moment)
      confetti_advance(confetti, clock = std::min(moment, clock + 1 / 60.0));
  }

protected:
  // Set up: Qt has made the context current. The effect lives in the widget's points.
  void initializeGL() override {
    initializeOpenGLFunctions();
    confetti_desc desc = {};
    desc.preset = preset;
    desc.width = width(), desc.height = height(), desc.seed = seed;
    if (confetti_create(&desc, &confetti) != CONFETTI_OK) return fail(confetti_last_error());
    // (Qt calls this again, with a new context, when the widget moves to another window: the
    // effect opens anew, at the opening reading.)
    if (ticking) clock = 1.0;
    confetti_fire_opening(confetti, clock);
    elapsed.start();
    // The context goes before the widget when the window closes: the effect goes with it.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] { teardown(); });
    // A frame after each frame is shown: the loop (connected once, whatever the context).
    connect(this, &QOpenGLWidget::frameSwapped, this, qOverload<>(&QWidget::update),
            Qt::UniqueConnection);
  }

  // Qt has made the context current and bound the widget's own framebuffer: the scene, then
  // the confetti over it, both at the widget's size in pixels.
  void paintGL() override {
    if (!confetti) return;
    if (ticking) clock = 1.0 + elapsed.nsecsElapsed() / 1e9;
    const qreal ratio = devicePixelRatio(); // pixels a point
    const int pixelsWide = qRound(width() * ratio), pixelsHigh = qRound(height() * ratio);
    glClearColor(26 / 255.0f, 31 / 255.0f, 51 / 255.0f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, pixelsWide, qRound(60 * ratio));
    glClearColor(200 / 255.0f, 160 / 255.0f, 60 / 255.0f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    if (confetti_draw(confetti, 0, 0, pixelsWide, pixelsHigh, clock) != CONFETTI_OK)
      fail(confetti_last_error());
  }

  // The widget's new size in points (Qt resizes its framebuffer itself).
  void resizeGL(int, int) override {
    if (confetti && width() > 0 && height() > 0) confetti_resize(confetti, width(), height());
  }

  void mousePressEvent(QMouseEvent *event) override {
    if (!confetti || event->button() != Qt::LeftButton) return;
    const QPointF at = event->position(); // points from the top-left corner, as confetti's
    confetti_trigger_at(confetti, CONFETTI_TRIGGER_CLICK, at.x(), at.y(), clock);
    int64_t alive = 0;
    confetti_alive_count(confetti, clock, &alive);
    std::printf("click at %.0f,%.0f: %lld particles alive\n", at.x(), at.y(), (long long)alive);
    std::fflush(stdout);
  }

  void keyPressEvent(QKeyEvent *event) override {
    if (event->key() == Qt::Key_Escape) close();
    if (event->key() == Qt::Key_Space && confetti)
      confetti_trigger(confetti, CONFETTI_TRIGGER_KEY, clock);
  }

private:
  const char *preset;
  uint64_t seed;
  confetti_system *confetti = nullptr;
  QElapsedTimer elapsed;

  // Tear down: the effect's GL objects go while its context is current.
  void teardown() {
    if (!confetti) return;
    makeCurrent();
    confetti_close(confetti);
    confetti = nullptr;
    doneCurrent();
  }

  void fail(const char *why) {
    std::fprintf(stderr, "qt-confetti: %s\n", why);
    status = 1;
    QTimer::singleShot(0, qApp, [] { QApplication::exit(1); });
  }
};

int main(int argc, char **argv) {
  // A GL 3.3 core context for every QOpenGLWidget: set before the application is made.
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  QSurfaceFormat::setDefaultFormat(format);
  QApplication application(argc, argv);

  const char *preset = "confetti", *snapshot = nullptr;
  double seconds = 0, at = 0.5;
  uint64_t seed = 1;
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!std::strcmp(argv[i], "--seconds") && value) seconds = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--at") && value) at = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--seed") && value) seed = std::strtoull(argv[++i], 0, 10);
    else if (!std::strcmp(argv[i], "--snapshot") && value) snapshot = argv[++i];
    else if (argv[i][0] == '-')
      return std::fprintf(stderr, "qt-confetti: %s: unknown option, or no value\n", argv[i]), 1;
    else preset = argv[i];
  }

  ConfettiWidget widget(preset, seed);
  widget.show();
  if (snapshot) { // once shown: the moment, drawn into the widget's framebuffer and read back
    QTimer::singleShot(0, &widget, [&] {
      widget.stepTo(1.0 + at);
      QImage picture = widget.grabFramebuffer();
      if (widget.status != 0) return;
      if (picture.save(snapshot, "PNG")) std::printf("saved %s at %g s\n", snapshot, at);
      else std::fprintf(stderr, "qt-confetti: %s: not written\n", snapshot), widget.status = 1;
      widget.close();
    });
  }
  if (seconds > 0) QTimer::singleShot(int(seconds * 1000), &widget, &QWidget::close);
  const int ended = application.exec();
  return widget.status != 0 ? widget.status : ended;
}
