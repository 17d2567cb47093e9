from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("register/", views.register, name="register"),
    path("login/", auth_views.LoginView.as_view(template_name="accounts/login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("relief/", views.relief, name="relief"),
]

urlpatterns += [
    path("u/<int:user_id>/", views.public_profile, name="public_profile"),
    path("u/<int:user_id>/<slug:action>/", views.relation, name="relation"),
    path("privacy/", views.privacy, name="privacy"),
    path("watching/", views.watching, name="watching"),
]
